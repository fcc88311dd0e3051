package org.rdmasim.refit.method;

import java.util.List;
import java.util.function.IntFunction;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.transport.Endpoint;

/**
 * One refit to run: what each inference rank needs from each trainer rank, where the ranks sit, how the
 * bytes move, and what the stages around the wire cost.
 *
 * @param routes         the slice map's routes (at least one); their bytes summed are the minimum a refit moves
 * @param trainer        trainer rank to the GPU holding it ({@code Endpoint(host, "GPU3")})
 * @param inference      inference rank to its GPU
 * @param broadcastBytes what a broadcast method sends to every inference rank (the whole converted model);
 *                       0 for a method that moves routes
 * @param method         the transfer method
 * @param preparation    gather and conversion on the trainer GPUs
 * @param registration   how the method's buffers are registered
 * @param calibration    the named stage parameters
 * @param cycles         refits run back to back (registration cached after the first, or not)
 * @param buffers        what each rank registers ({@link RankBuffers#perRoute} when none is given)
 * @param broadcastTensors the tensors in {@code broadcastBytes}, as inference loads them: what each rank that
 *                       receives the whole model hands its engine's {@code load_weights}, one call per tensor;
 *                       0 for a method that moves routes
 * @param verlManager    whether the time is verl's trainer timer around its checkpoint-engine manager into vLLM
 *                       rollouts, which pays {@link RefitCalibration#VERL_UPDATE_FRAME} once per update
 * @param postLoadTensors tensors the engine reworks after every {@code load_weights} call whatever the call
 *                       carried, each at the per-tensor load cost (SGLang's GLM-4.7-Flash loader: every layer's
 *                       {@code kv_b_proj} split again into the MLA weights, {@link BroadcastOrder#loadWeights}); 0
 *                       for a loader that reworks only what it was handed
 */
public record RefitPlan(List<SliceRoute> routes, IntFunction<Endpoint> trainer, IntFunction<Endpoint> inference,
        long broadcastBytes, RefitMethod method, Preparation preparation, Registration registration,
        RefitCalibration calibration, int cycles, RankBuffers buffers, long broadcastTensors, boolean verlManager,
        long postLoadTensors) {
    public RefitPlan {
        if (postLoadTensors < 0) {
            throw new IllegalArgumentException("tensors reworked after a load are >= 0, got " + postLoadTensors);
        }
        routes = List.copyOf(routes);
        if (buffers == null) {
            buffers = RankBuffers.perRoute(routes);
        }
        if (routes.isEmpty()) {
            throw new IllegalArgumentException("a refit needs at least one route");
        }
        if (trainer == null || inference == null || method == null || preparation == null || registration == null
                || calibration == null) {
            throw new IllegalArgumentException("placements, method, preparation, registration and calibration are required");
        }
        if (cycles < 1) {
            throw new IllegalArgumentException("a refit runs at least one cycle, got " + cycles);
        }
        if (broadcastBytes < 0 || broadcastTensors < 0) {
            throw new IllegalArgumentException("broadcast bytes and tensors must be >= 0");
        }
        if (broadcastTensors > 0 && broadcastTensors > broadcastBytes) {
            throw new IllegalArgumentException("a tensor holds at least one byte: " + broadcastTensors + " tensors in "
                    + broadcastBytes + " B");
        }
    }

    /** A plan whose engine reworks nothing beyond what each load hands it. */
    public RefitPlan(List<SliceRoute> routes, IntFunction<Endpoint> trainer, IntFunction<Endpoint> inference,
            long broadcastBytes, RefitMethod method, Preparation preparation, Registration registration,
            RefitCalibration calibration, int cycles, RankBuffers buffers, long broadcastTensors, boolean verlManager) {
        this(routes, trainer, inference, broadcastBytes, method, preparation, registration, calibration, cycles, buffers,
                broadcastTensors, verlManager, 0);
    }

    /** A plan outside verl's checkpoint-engine manager. */
    public RefitPlan(List<SliceRoute> routes, IntFunction<Endpoint> trainer, IntFunction<Endpoint> inference,
            long broadcastBytes, RefitMethod method, Preparation preparation, Registration registration,
            RefitCalibration calibration, int cycles, RankBuffers buffers, long broadcastTensors) {
        this(routes, trainer, inference, broadcastBytes, method, preparation, registration, calibration, cycles, buffers,
                broadcastTensors, false);
    }

    /** A plan whose buffers are those of its routes taken one by one ({@link RankBuffers#perRoute}). */
    public RefitPlan(List<SliceRoute> routes, IntFunction<Endpoint> trainer, IntFunction<Endpoint> inference,
            long broadcastBytes, RefitMethod method, Preparation preparation, Registration registration,
            RefitCalibration calibration, int cycles) {
        this(routes, trainer, inference, broadcastBytes, method, preparation, registration, calibration, cycles, null, 0);
    }

    /** A plan that hands its engines no tensors one by one (a method that moves routes, or a test's wire alone). */
    public RefitPlan(List<SliceRoute> routes, IntFunction<Endpoint> trainer, IntFunction<Endpoint> inference,
            long broadcastBytes, RefitMethod method, Preparation preparation, Registration registration,
            RefitCalibration calibration, int cycles, RankBuffers buffers) {
        this(routes, trainer, inference, broadcastBytes, method, preparation, registration, calibration, cycles, buffers,
                0);
    }

    /** One cycle, default calibration, no preparation, registration none, broadcast bytes 0. */
    public static RefitPlan of(List<SliceRoute> routes, IntFunction<Endpoint> trainer, IntFunction<Endpoint> inference,
            RefitMethod method) {
        return new RefitPlan(routes, trainer, inference, 0, method, Preparation.NONE, Registration.none(),
                RefitCalibration.defaults(), 1);
    }

    public RefitPlan withBroadcastBytes(long bytes) {
        return new RefitPlan(routes, trainer, inference, bytes, method, preparation, registration, calibration,
                cycles, buffers, broadcastTensors, verlManager, postLoadTensors);
    }

    /** The same plan, its broadcast payload holding {@code tensors} tensors. */
    public RefitPlan withBroadcastTensors(long tensors) {
        return new RefitPlan(routes, trainer, inference, broadcastBytes, method, preparation, registration, calibration,
                cycles, buffers, tensors, verlManager, postLoadTensors);
    }

    /**
     * Tensors in bytes [from, to) of the broadcast payload, apportioned by bytes so that consecutive ranges add
     * up to {@link #broadcastTensors} exactly: a payload cut into buckets by bytes gives each bucket its share of the
     * tensors.
     */
    public long broadcastTensorsIn(long from, long to) {
        return broadcastTensors == 0 ? 0 : ColocatedIpc.share(broadcastTensors, from, to, broadcastBytes);
    }

    public RefitPlan withPreparation(Preparation p) {
        return new RefitPlan(routes, trainer, inference, broadcastBytes, method, p, registration, calibration,
                cycles, buffers, broadcastTensors, verlManager, postLoadTensors);
    }

    public RefitPlan withRegistration(Registration r, int newCycles) {
        return new RefitPlan(routes, trainer, inference, broadcastBytes, method, preparation, r, calibration,
                newCycles, buffers, broadcastTensors, verlManager, postLoadTensors);
    }

    public RefitPlan withCalibration(RefitCalibration c) {
        return new RefitPlan(routes, trainer, inference, broadcastBytes, method, preparation, registration, c,
                cycles, buffers, broadcastTensors, verlManager, postLoadTensors);
    }

    public RefitPlan withMethod(RefitMethod m) {
        return new RefitPlan(routes, trainer, inference, broadcastBytes, m, preparation, registration, calibration,
                cycles, buffers, broadcastTensors, verlManager, postLoadTensors);
    }

    public RefitPlan withBuffers(RankBuffers b) {
        return new RefitPlan(routes, trainer, inference, broadcastBytes, method, preparation, registration, calibration,
                cycles, b, broadcastTensors, verlManager, postLoadTensors);
    }

    /** The same plan, timed (or not) through verl's checkpoint-engine manager ({@link #verlManager}). */
    public RefitPlan withVerlManager(boolean managed) {
        return new RefitPlan(routes, trainer, inference, broadcastBytes, method, preparation, registration, calibration,
                cycles, buffers, broadcastTensors, managed, postLoadTensors);
    }

    /** The same plan, its engine reworking {@code tensors} tensors after every load ({@link #postLoadTensors}). */
    public RefitPlan withPostLoadTensors(long tensors) {
        return new RefitPlan(routes, trainer, inference, broadcastBytes, method, preparation, registration, calibration,
                cycles, buffers, broadcastTensors, verlManager, tensors);
    }

    /** The slice map's bytes: what every inference rank needs, summed. */
    public long minimumBytes() {
        long sum = 0;
        for (SliceRoute r : routes) {
            sum = Math.addExact(sum, r.bytes());
        }
        return sum;
    }
}

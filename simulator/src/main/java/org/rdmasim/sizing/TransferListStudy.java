package org.rdmasim.sizing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxPaths;
import org.rdmasim.workload.TransferItem;

/**
 * Why {@code size} refuses a transfer list ({@code workload: transfers}), and the study that gives its time at each
 * setting of the knob asked for instead. {@code size}'s search is over a figure with a population behind it: a
 * fan-out's p99 pull time over its receivers and replications, or a refit's time per cycle; its NIC and rail
 * knobs are set for the fan-out's receiving GPUs. A transfer list has neither: each transfer names its own source
 * and sink, it has no tree, and its transfers may land on different GPUs of different hosts. Its time at each value
 * of a NIC or rail knob is what a study over {@code transport.env} measures, one row per value.
 */
public final class TransferListStudy {
    private TransferListStudy() {
    }

    /**
     * The refusal for {@code v}, a transfer-list variant, and {@code --vary knob}: why, and for nics or rails the
     * study to write beside {@code scenarioFile} and the sweep command that runs it.
     */
    public static String refusal(Path scenarioFile, VariantSpec v, boolean firstVariant, FanoutSizing.Knob knob) {
        String why = scenarioFile + ": variant '" + v.name() + "' is a transfer list (workload: transfers): size "
                + "searches a fan-out's p99 pull time over its receivers (workload: fanout) or a refit's time per cycle "
                + "(workload: refit)";
        if (knob == FanoutSizing.Knob.SOURCES || knob == FanoutSizing.Knob.TREE_DEGREE) {
            return why + "; a transfer list's sources are its transfers' from: hosts and it has no tree, so --vary "
                    + knob.label() + " has nothing to turn: write the pulls as a fan-out (workload: {fanout: ...}) "
                    + "to size it";
        }
        TransferItem first = v.transfers().get(0);
        Host host = new Host(first.to().host(), v.hosts().get(first.to().host()));
        Optional<TopologyNode> gpu = host.find(first.to().device()).filter(n -> n.kind() == TopologyNode.Kind.GPU);
        List<String> values = new ArrayList<>();
        String what;
        if (knob == FanoutSizing.Knob.NICS) {
            List<String> nics = NicOrder.nearestFirst(host, gpu.map(List::of).orElse(List.of()));
            for (int n = 1; n <= nics.size(); n++) {
                values.add("export UCX_NET_DEVICES=" + String.join(",", nics.subList(0, n).stream().map(x -> x + ":1")
                        .toList()) + "\\nexport UCX_MAX_RMA_RAILS=" + n);
            }
            what = "the first " + nics.size() + " compute NIC(s) of " + host.name() + " nearest "
                    + gpu.map(g -> first.to().device()).orElse("its memory") + ", where transfer '" + first.id()
                    + "' lands, listed 1, 2, ... at a time with as many rails";
        } else {
            StackProfile stack = v.transport().stack();
            TopologyNode sink = host.find(first.to().device()).orElseThrow();
            var numPaths = stack.configFor(host, sink).ibNumPaths();
            int lanes = 0;
            for (TopologyNode nic : host.computeNics()) {
                lanes += UcxPaths.pathsPerPort(nic.nic(), stack.ucx(), numPaths);
            }
            for (int n = 1; n <= Math.max(1, lanes); n++) {
                values.add("export UCX_MAX_RMA_RAILS=" + n);
            }
            what = "UCX_MAX_RMA_RAILS from 1 to the " + lanes + " lane(s) " + host.name() + "'s compute NICs open "
                    + "(paths per port, UCX_IB_NUM_PATHS)";
        }
        Set<String> set = knob == FanoutSizing.Knob.NICS ? Set.of("UCX_NET_DEVICES", "UCX_MAX_RMA_RAILS")
                : Set.of("UCX_MAX_RMA_RAILS");
        for (EnvEntry e : v.transport().env()) {
            if (set.contains(e.name()) && e.field().startsWith("variants[")) {
                // a study's env knob is laid under the variant's own env: every row would run the variant's value
                return why + ". A study over transport.env gives a transfer list's time at each setting, but variant '"
                        + v.name() + "' sets " + e.name() + " itself (" + e.location() + "), which a study knob cannot "
                        + "change: run one on a variant that leaves it to the scenario's transport.env";
            }
        }
        Path fileName = scenarioFile.getFileName();
        String name = (fileName.toString().replaceFirst("\\.ya?ml$", "") + (firstVariant ? "" : "-" + v.name()))
                .replaceAll("[^A-Za-z0-9._-]", "-") + "-" + knob.label();
        String file = name + ".yaml";
        StringBuilder study = new StringBuilder();
        study.append("  study: ").append(name).append('\n');
        study.append("  scenario: ").append(fileName).append('\n');
        if (!firstVariant) {
            study.append("  variant: ").append(v.name()).append('\n');
        }
        study.append("  knobs:\n    transport.env:\n");
        for (String value : values) {
            study.append("      - \"").append(value).append("\"\n");
        }
        study.append("  figures: [makespanSeconds, p99PullSeconds, aggregateGbps]\n");
        Path beside = scenarioFile.getParent() == null ? Path.of(file) : scenarioFile.getParent().resolve(file);
        return why + ". Its time at each setting of " + knob.label() + " is what a study gives (" + what + "): write "
                + "this to " + beside + "\n" + study + "then run: ./rdmasim sweep " + beside;
    }
}

package org.rdmasim.run;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.config.UcxInstall;

/**
 * A variant rerun under the other UCX install: the scenario did not name its install, so the run assumed the
 * common one for its stack, and the deployment (not the model) decides between the two. Explain and the run's
 * Answer both take the other install's answer from here, so they rerun the same variant.
 *
 * @param assumed the install the run assumed
 * @param other   the other install, stated on {@code variant}
 * @param variant the variant as rerun
 */
public record OtherInstall(UcxInstall assumed, UcxInstall other, VariantSpec variant) {

    /** {@code v} under the other install; empty when the scenario states the install. */
    public static Optional<OtherInstall> of(VariantSpec v) {
        var stack = v.transport().stack();
        if (stack.installStated()) {
            return Optional.empty();
        }
        var other = stack.install().other();
        return Optional.of(new OtherInstall(stack.install(), other,
                v.withTransport(v.transport().withStack(stack.withInstall(other)))));
    }

    /**
     * {@code v} under the other install when the install can change its answer: not stated, and, for some host
     * shape of the variant, {@link org.rdmasim.scenario.TransportSettings#ucxInstallMatters} (the backend is UCX and
     * the host reads a ucx.conf section under one install and not the other).
     */
    public static Optional<OtherInstall> mattering(VariantSpec v) {
        var stack = v.transport().stack();
        if (stack.installStated()) {
            return Optional.empty();
        }
        // one host built per shape: a counted group shares one spec instance
        Set<HostSpec> shapes = Collections.newSetFromMap(new IdentityHashMap<>());
        for (var e : v.hosts().entrySet()) {
            if (shapes.add(e.getValue()) && v.transport().ucxInstallMatters(new Host(e.getKey(), e.getValue()))) {
                return of(v);
            }
        }
        return Optional.empty();
    }

    /** The other install as outputs name it: "prefix (ucx.conf read)". */
    public String otherWords() {
        return other.yamlName() + " (" + (other.readsUcxConf() ? "ucx.conf read" : "no ucx.conf read") + ")";
    }
}

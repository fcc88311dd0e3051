package org.rdmasim.transport.config;

import java.util.Locale;
import java.util.Optional;
import org.rdmasim.transport.citation.Citation;

/**
 * How the UCX library a process loads was installed, which decides whether it finds the {@code ucx.conf}
 * UCX ships. UCX looks for the file in five places only: the directory compiled in at build time
 * ({@code ${sysconfdir}/ucx}), {@code ../etc/ucx/} beside {@code libucs.so}, {@code $HOME},
 * {@code $UCX_CONFIG_DIR} and the working directory; a missing file is a debug message
 * (openucx/ucx {@code src/ucs/config/parser.c} {@code ucs_config_parse_config_files}, v1.20.0 L1782-1820).
 * {@code make install} puts the file in {@code $prefix/etc/ucx} ({@code config/Makefile.am} L7-8).
 *
 * <p>A deployment the scenario does not name is taken as the common one for its stack: a NIXL process
 * loads the UCX bundled in NIXL's PyPI wheel (vLLM's CUDA images install it from
 * {@code requirements/kv_connectors.txt}); a plain UCX process loads an installed UCX.
 */
public enum UcxInstall {
    /**
     * UCX bundled in NIXL's PyPI wheel: ai-dynamo/nixl {@code contrib/build-wheel.sh} ({@code auditwheel repair},
     * v1.1.0 L103; cited at the NIXL release a scenario names, {@link NixlSite#WHEEL_BUNDLES_UCX}) copies libucs, libucp, libuct and libucm into the wheel's {@code .libs} folder and ships no
     * {@code ucx.conf}, so none of the five places holds one on a node that did not install UCX itself.
     */
    NIXL_WHEEL("nixl-wheel", false, "UCX bundled in NIXL's PyPI wheel (auditwheel copies the UCX libraries into "
            + "the wheel, no ucx.conf): UCX finds no ucx.conf", "ai-dynamo/nixl v1.1.0 contrib/build-wheel.sh:103"),
    /**
     * UCX installed into a prefix by {@code make install} (a distribution package, a source build, or a
     * container that builds UCX with {@code --prefix=/usr/local/ucx} and copies the tree, as ai-dynamo/dynamo's
     * earlier runtime images did): {@code $prefix/etc/ucx/ucx.conf} is read ({@code conf_files_DATA} in
     * {@code config/Makefile.am} installs it to {@code $(ucx_config_dir)}).
     */
    PREFIX("prefix", true, "UCX installed into a prefix (make install puts ucx.conf in $prefix/etc/ucx): UCX "
            + "reads its ucx.conf", "openucx/ucx v1.20.0 config/Makefile.am:7-8");

    private final String yamlName;
    private final boolean readsUcxConf;
    private final String words;
    private final Citation source;

    UcxInstall(String yamlName, boolean readsUcxConf, String words, String source) {
        this.yamlName = yamlName;
        this.readsUcxConf = readsUcxConf;
        this.words = words;
        this.source = Citation.parse(source);
    }

    /** The name a scenario uses ({@code transport.ucxInstall}). */
    public String yamlName() {
        return yamlName;
    }

    /** Whether UCX finds the {@code ucx.conf} its release ships. */
    public boolean readsUcxConf() {
        return readsUcxConf;
    }

    /**
     * One line saying what the install is and whether {@code ucx.conf} is read, then {@code ; source: } and its
     * source, at the NIXL release {@code nixl} names when the install is NIXL's wheel.
     */
    public String description(Optional<StackVersion> nixl) {
        return words + "; source: " + source(nixl).text();
    }

    /** Where the install puts UCX (and a {@code ucx.conf}, or none): NIXL's wheel build at the release named. */
    public Citation source(Optional<StackVersion> nixl) {
        return this == NIXL_WHEEL && nixl.isPresent() ? NixlSite.WHEEL_BUNDLES_UCX.cite(nixl.get()) : source;
    }

    /** The other install: what the answer would be if the deployment were the other kind. */
    public UcxInstall other() {
        return this == NIXL_WHEEL ? PREFIX : NIXL_WHEEL;
    }

    /** The common install for a stack: NIXL's wheel under NIXL, an installed UCX for plain UCX. */
    public static UcxInstall commonFor(Optional<StackVersion> nixl) {
        return nixl.isPresent() ? NIXL_WHEEL : PREFIX;
    }

    /** {@code nixl-wheel} or {@code prefix}, any case; empty for anything else. */
    public static Optional<UcxInstall> parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (UcxInstall i : values()) {
            if (i.yamlName.equals(t)) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }
}

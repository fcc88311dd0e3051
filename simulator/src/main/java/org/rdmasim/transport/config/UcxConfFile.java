package org.rdmasim.transport.config;

import java.util.List;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.transport.citation.Citation;


/**
 * The {@code ucx.conf} a UCX installation reads at start-up (openucx/ucx {@code config/ucx.conf},
 * installed to {@code $prefix/etc/ucx/ucx.conf} since v1.18.0): per-CPU sections whose values sit
 * between UCX's built-in defaults and the environment. Only the settings rdmasim models are listed.
 * A UCX that comes without the file (for example bundled inside a Python wheel) has no such layer:
 * a scenario says so with {@code transport.ucxConf: absent}.
 *
 * @param section  the section header that matched the host's CPU, or empty
 * @param settings the {@code NAME=VALUE} lines of that section that rdmasim models
 */
public record UcxConfFile(String section, List<Setting> settings) {

    /** One line of a section. */
    public record Setting(String name, String value, Citation citation) {
    }

    public static final UcxConfFile NONE = new UcxConfFile("", List.of());

    private static final StackVersion FIRST_SHIPPED = new StackVersion(1, 18, 0);

    /**
     * The section UCX {@code ucx} would apply on a {@code cpu} host, when the file is installed.
     * v1.18.0..v1.22.0 {@code config/ucx.conf}: {@code [Grace Hopper] CPU model=Grace} sets
     * {@code UCX_DISTANCE_BW=auto,sys:16500MBs}; {@code [AMD] CPU vendor=AMD} sets
     * {@code UCX_DISTANCE_BW=auto,sys:5100MBs} (lines per release in {@link UcxSite}).
     */
    public static UcxConfFile forHost(CpuFamily cpu, StackVersion ucx, boolean installed) {
        if (!installed || !ucx.atLeast(FIRST_SHIPPED)) {
            return NONE;
        }
        return switch (cpu) {
            case NVIDIA_GRACE -> new UcxConfFile("[Grace Hopper] CPU model=Grace", List.of(new Setting(
                    "UCX_DISTANCE_BW", "auto,sys:16500MBs", UcxSite.CONF_GRACE_DISTANCE.cite(ucx))));
            default -> cpu.isAmd() ? new UcxConfFile("[AMD] CPU vendor=AMD", List.of(new Setting(
                    "UCX_DISTANCE_BW", "auto,sys:5100MBs", UcxSite.CONF_AMD_DISTANCE.cite(ucx)))) : NONE;
        };
    }
}

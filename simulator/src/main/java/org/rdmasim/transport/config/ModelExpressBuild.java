package org.rdmasim.transport.config;

/**
 * Which ModelExpress client a process runs: a release, or a named branch build ([mx-src], [mx-pr-450]):
 * {@code MX_RDMA_NIC_PIN=stripe} exists only on feature branches ({@code kavink/multi-nic-stripe-mode});
 * every release up to 0.5.1 treats {@code stripe} as {@code auto} and pins one NIC per GPU.
 *
 * @param name       a release such as {@code 0.5.1}, or a branch name
 * @param stripeMode whether this build implements the stripe mode
 */
public record ModelExpressBuild(String name, boolean stripeMode) {
    /** The newest ModelExpress release rdmasim's configuration rules were read from. */
    public static final ModelExpressBuild LATEST_RELEASE = new ModelExpressBuild("0.5.1", false);

    /** A release number is a release; anything else is a branch build, with stripe mode if it says so. */
    public static ModelExpressBuild parse(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("expected a ModelExpress release such as 0.5.1 or a branch name");
        }
        if (t.matches("v?\\d+(\\.\\d+){1,2}")) {
            return new ModelExpressBuild(t.replaceFirst("^v", ""), false);
        }
        return new ModelExpressBuild(t, t.contains("stripe"));
    }
}

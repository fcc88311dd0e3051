package org.rdmasim.refit.model;

/** Element types of model weights, with their storage size. */
public enum DType {
    FP32(4), BF16(2), FP16(2),
    /** OCP FP8 E4M3, the dtype of DeepSeek-V3/Kimi-K2 block-quantised weights. */
    FP8_E4M3(1),
    /** Power-of-two scale bytes (MXFP8 {@code ue8m0} scales). */
    UE8M0(1);

    private final int bytes;

    DType(int bytes) {
        this.bytes = bytes;
    }

    public int bytesPerElement() {
        return bytes;
    }
}

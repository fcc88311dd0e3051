package org.rdmasim.refit.method;

/** Calls its action once {@code n} parts have arrived (at once when {@code n} is 0). */
final class Countdown {
    private int left;
    private final Runnable then;

    Countdown(int n, Runnable then) {
        if (n < 0) {
            throw new IllegalArgumentException("negative count");
        }
        this.left = n;
        this.then = then;
        if (n == 0) {
            then.run();
        }
    }

    void arrive() {
        if (left <= 0) {
            throw new IllegalStateException("more arrivals than expected");
        }
        if (--left == 0) {
            then.run();
        }
    }
}

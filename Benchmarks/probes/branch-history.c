/* How long a repeating pattern of unpredictable branches this core learns by heart: one branch
 * per element over a fixed random bit pattern of L elements, repeated. Prints ns per branch for
 * L = 1 000 ... 10 000 000. Both paths do similar work, so the difference is mispredictions.
 * Build it with clang (the Swift toolchain's): gcc turns the branch into a conditional move, and
 * then it measures nothing.
 *
 *   clang -O1 Benchmarks/probes/branch-history.c -o /tmp/branch-history && /tmp/branch-history
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void) {
    for (long n = 1000; n <= 10000000; n *= 10) {
        unsigned char *bits = malloc(n / 8 + 1);
        srand(1);
        for (long i = 0; i < n / 8 + 1; i++) bits[i] = (unsigned char)rand();
        long reps = 100000000L / n;
        double x = 1;
        double t0 = now();
        for (long r = 0; r < reps; r++)
            for (long i = 0; i < n; i++) {
                if ((bits[i >> 3] >> (i & 7)) & 1) x = x * 1.0000001 + 0.5;
                else x -= 0.25;
            }
        double t = now() - t0;
        printf("pattern of %8ld branches: %.2f ns per branch (%g)\n", n, t / (reps * (double)n), x);
        free(bits);
    }
    return 0;
}

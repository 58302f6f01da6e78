/* Reference loop for bench/bench_mrg.py: n outputs of MRG32k3a (or MRG31k3p) in 64-bit
 * integer arithmetic, written into an array as rnglab's random_raw does, from the
 * seed 12345 x 6. Prints the sum of the outputs (a check, and so the loop is not removed).
 * MRG63k3a (L'Ecuyer 1999, moduli near 2^63) multiplies by Schrage's method, as L'Ecuyer's
 * own code does: a s mod m = a (s mod q) - r floor(s / q) (+ m), q = m / a, r = m % a, exact
 * in 64 bits when a r < m, with the constants known at compile time.
 *   usage: mrg_stream {mrg32k3a|mrg31k3p|mrg63k3a} n */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t schrage(int64_t a, int64_t s, int64_t m) {
    int64_t q = m / a, r = m % a, h = s / q, t = a * (s - h * q) - h * r;
    return t < 0 ? t + m : t;
}

static uint64_t mrg63k3a(long n) {
    const int64_t m1 = 9223372036854769163LL, m2 = 9223372036854754679LL;
    int64_t x[3] = {12345, 12345, 12345}, y[3] = {12345, 12345, 12345};  /* oldest first */
    uint64_t *out = malloc(n * sizeof *out), sum = 0;
    for (long i = 0; i < n; i++) {
        int64_t p1 = schrage(1754669720LL, x[1], m1) - schrage(3182104042LL, x[0], m1);
        if (p1 < 0) p1 += m1;
        x[0] = x[1]; x[1] = x[2]; x[2] = p1;
        int64_t p2 = schrage(31387477935LL, y[2], m2) - schrage(6199136374LL, y[0], m2);
        if (p2 < 0) p2 += m2;
        y[0] = y[1]; y[1] = y[2]; y[2] = p2;
        out[i] = p1 > p2 ? p1 - p2 : p1 - p2 + m1;
    }
    for (long i = 0; i < n; i++) sum += out[i];
    return sum;
}

int main(int argc, char **argv) {
    if (strcmp(argv[1], "mrg63k3a") == 0) {
        printf("%llu\n", (unsigned long long)mrg63k3a(atol(argv[2])));
        return 0;
    }
    int k3a = strcmp(argv[1], "mrg32k3a") == 0;
    long n = atol(argv[2]);
    const int64_t m1 = k3a ? 4294967087LL : 2147483647LL, m2 = k3a ? 4294944443LL : 2147462579LL;
    const int64_t a12 = k3a ? 1403580 : 4194304, a13 = k3a ? -810728 : 129;
    const int64_t a21 = k3a ? 527612 : 32768, a23 = k3a ? -1370589 : 32769;
    int64_t x[3] = {12345, 12345, 12345}, y[3] = {12345, 12345, 12345};  /* oldest first */
    uint64_t *out = malloc(n * sizeof *out), sum = 0;
    for (long i = 0; i < n; i++) {
        int64_t p1 = (a12 * x[1] + a13 * x[0]) % m1;
        if (p1 < 0) p1 += m1;
        x[0] = x[1]; x[1] = x[2]; x[2] = p1;
        int64_t p2 = (a21 * y[2] + a23 * y[0]) % m2;
        if (p2 < 0) p2 += m2;
        y[0] = y[1]; y[1] = y[2]; y[2] = p2;
        int64_t z = p1 - p2;
        out[i] = z > 0 ? z : z + m1;
    }
    for (long i = 0; i < n; i++) sum += out[i];
    printf("%llu\n", (unsigned long long)sum);
    return 0;
}

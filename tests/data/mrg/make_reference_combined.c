/* Reference outputs of Wichmann-Hill, L'Ecuyer 1988 and Knuth's order-2 MRG, each written
 * as its publication gives it (there is no single canonical source file to build):
 *   Wichmann and Hill, Algorithm AS 183, Applied Statistics 31(2), 1982 (in double precision,
 *     as CPython 2's random.WichmannHill.random computes it);
 *   L'Ecuyer, CACM 31(6), 1988, Figure 3 (Schrage's method, u = Z * 4.656613e-10);
 *   Knuth, TAOCP vol. 2, 3.2.2: x_n = (271828183 x_{n-1} - 314159269 x_{n-2}) mod (2^31 - 1).
 *   cc -O0 make_reference_combined.c -lm -o ref && ./ref > combined_reference.txt
 * Lines: "name seed...", then "z u" per output (u printed with %.17g).
 * For Wichmann-Hill z is W = (x*30307*30323 + y*30269*30323 + z*30269*30307) mod M. */
#include <stdio.h>
#include <math.h>

static void wichmann_hill(long x, long y, long z, int count) {
    const long long m1 = 30269, m2 = 30307, m3 = 30323, M = m1 * m2 * m3;
    printf("wichmann-hill %ld %ld %ld\n", x, y, z);
    for (int i = 0; i < count; i++) {
        x = (171 * x) % 30269;
        y = (172 * y) % 30307;
        z = (170 * z) % 30323;
        double u = fmod(x / 30269.0 + y / 30307.0 + z / 30323.0, 1.0);
        long long w = (x * m2 * m3 + y * m1 * m3 + z * m1 * m2) % M;
        printf("%lld %.17g\n", w, u);
    }
}

static void lecuyer88(long s1, long s2, int count) {
    printf("lecuyer88 %ld %ld\n", s1, s2);
    for (int i = 0; i < count; i++) {
        long k = s1 / 53668;
        s1 = 40014 * (s1 - k * 53668) - k * 12211;
        if (s1 < 0) s1 += 2147483563;
        k = s2 / 52774;
        s2 = 40692 * (s2 - k * 52774) - k * 3791;
        if (s2 < 0) s2 += 2147483399;
        long z = s1 - s2;
        if (z < 1) z += 2147483562;
        printf("%ld %.17g\n", z, z * 4.656613e-10);
    }
}

static void knuth_mrg(long long older, long long newer, int count) {
    const long long m = 2147483647LL;
    printf("knuth-mrg %lld %lld\n", older, newer);
    for (int i = 0; i < count; i++) {
        long long x = (271828183LL * newer - 314159269LL * older) % m;
        if (x < 0) x += m;
        older = newer;
        newer = x;
        printf("%lld %.17g\n", x, x * (1.0 / m));
    }
}

int main(void) {
    wichmann_hill(12345, 12345, 12345, 20);
    wichmann_hill(1, 2, 3, 20);
    lecuyer88(12345, 12345, 20);
    lecuyer88(2147483562, 1, 20);
    knuth_mrg(1, 1, 20);
    knuth_mrg(2147483646, 3, 20);
    return 0;
}

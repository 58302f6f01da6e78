/* Known answers from the real glibc implementations, for tests/test_catalog.py.
 * Build and run: cc -O2 -o /tmp/glibc_reference glibc_reference.c && /tmp/glibc_reference
 * Output: one line per case, "name seed v1 v2 ...".
 */
#include <stdio.h>
#include <stdlib.h>

static void type0(unsigned seed) {
    /* A state buffer of 8 bytes makes initstate choose TYPE_0, the plain LCG. */
    static char state[8];
    initstate(seed, state, sizeof state);
    printf("glibc_type0 %u", seed);
    for (int i = 0; i < 5; i++) printf(" %ld", random());
    printf("\n");
}

static void lrand48_case(long seed) {
    srand48(seed);
    printf("lrand48 %ld", seed);
    for (int i = 0; i < 5; i++) printf(" %ld", lrand48());
    printf("\n");
}

static void drand48_case(long seed) {
    srand48(seed);
    printf("drand48 %ld", seed);
    /* drand48() = X / 2^48 exactly, so X = drand48() * 2^48 is an integer. */
    for (int i = 0; i < 5; i++) printf(" %.0f", drand48() * 281474976710656.0);
    printf("\n");
}

int main(void) {
    type0(1);
    type0(0);
    type0(12345);
    lrand48_case(0);
    lrand48_case(12345);
    drand48_case(0);
    drand48_case(20261122);
    return 0;
}

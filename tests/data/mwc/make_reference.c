/* Reference outputs of Marsaglia's multiply-with-carry generators, computed as their programs compute them.
 *
 * KISS99 (G. Marsaglia, "Random numbers for C: End, at last?", sci.stat.math, 1999):
 *   znew: z = 36969 * (z & 65535) + (z >> 16), z = 362436069 at the start;
 *   wnew: w = 18000 * (w & 65535) + (w >> 16), w = 521288629 at the start.
 * The MWC's output x is the low 16 bits of the word (the carry is the high 16).
 * 32-bit MWC of Marsaglia's KISS as in JKISS (D. Jones, UCL, 2010):
 *   t = 698769069 * z + c; c = t >> 32; z = (uint32_t) t; z = 43219876, c = 6543217 at the start.
 *
 * Build and run:  cc -O2 -o make_reference make_reference.c && ./make_reference > mwc_reference.txt
 * Each line: generator name, step n (1 = first output), output x_n, the word t_n = c_n b + x_n.
 */
#include <stdint.h>
#include <stdio.h>

static void kiss99(const char *name, uint32_t a, uint32_t z)
{
    for (long n = 1; n <= 1000000; n++) {
        z = a * (z & 65535) + (z >> 16);
        if (n <= 100 || n == 1000000)
            printf("%s %ld %u %u\n", name, n, z & 65535u, z);
    }
}

static void mwc32(const char *name, uint64_t a, uint32_t z, uint32_t c)
{
    for (long n = 1; n <= 1000000; n++) {
        uint64_t t = a * z + c;
        c = (uint32_t) (t >> 32);
        z = (uint32_t) t;
        if (n <= 100 || n == 1000000)
            printf("%s %ld %u %llu\n", name, n, z, (unsigned long long) c << 32 | z);
    }
}

int main(void)
{
    kiss99("mwc-36969", 36969, 362436069u);
    kiss99("mwc-18000", 18000, 521288629u);
    mwc32("mwc-698769069", 698769069ull, 43219876u, 6543217u);
    return 0;
}

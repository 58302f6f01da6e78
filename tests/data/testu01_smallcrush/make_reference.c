/* Reference statistics for rnglab's weight-distribution, hamming-independence and random-walk tests,
 * computed by TestU01 1.2.3 (svaria_WeightDistrib, sstring_HammingIndep, swalk_RandomWalk1) with
 * SmallCrush's parameters, on two 32-bit generators that rnglab names the same way:
 *   mmix32: the top 32 bits of Knuth's MMIX LCG, x = 6364136223846793005 x + 1442695040888963407 mod 2^64,
 *           seed 12345 (rnglab: lcg:a=6364136223846793005,c=1442695040888963407,m=2^64,output=bits(32,32)).
 *   delphi: x = 134775813 x + 1 mod 2^32, output x, seed 12345 (rnglab: delphi).
 * Build against TestU01 (not part of rnglab):
 *   gcc -O2 make_reference.c -I$T/include -L$T/lib -ltestu01 -lprobdist -lmylib -lm -o make_reference
 *   LD_LIBRARY_PATH=$T/lib ./make_reference > reference.txt
 */
#include <stdio.h>
#include <string.h>
#include "unif01.h"
#include "swrite.h"
#include "sres.h"
#include "svaria.h"
#include "sstring.h"
#include "swalk.h"

static unsigned long long mmix_state;
static unsigned int mmix32(void) {
    mmix_state = mmix_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned int) (mmix_state >> 32);
}

static unsigned int delphi_state;
static unsigned int delphi(void) {
    delphi_state = delphi_state * 134775813u + 1u;
    return delphi_state;
}

static void run(const char *name, unsigned int (*next)(void), void (*reset)(void)) {
    unif01_Gen *gen = unif01_CreateExternGenBits((char *) name, next);
    sres_Chi2 *chi = sres_CreateChi2();
    sstring_Res *ham = sstring_CreateRes();
    swalk_Res *walk = swalk_CreateRes();
    reset();
    svaria_WeightDistrib(gen, chi, 1, 200000, 27, 256, 0.0, 0.125);
    printf("%s weight-distribution statistic %.17g pvalue %.17g\n", name, chi->sVal2[gofw_Mean], chi->pVal2[gofw_Mean]);
    reset();
    sstring_HammingIndep(gen, ham, 1, 500000, 20, 10, 300, 0);
    printf("%s hamming-independence statistic %.17g pvalue %.17g\n", name, ham->Bas->sVal2[gofw_Mean],
           ham->Bas->pVal2[gofw_Mean]);
    reset();
    swalk_RandomWalk1(gen, walk, 1, 1000000, 0, 30, 150, 150);
    const char *names[5] = {"H", "M", "J", "R", "C"};
    sres_Chi2 *parts[5] = {walk->H[0], walk->M[0], walk->J[0], walk->R[0], walk->C[0]};
    for (int i = 0; i < 5; i++)
        printf("%s random-walk-%s statistic %.17g pvalue %.17g\n", name, names[i], parts[i]->sVal2[gofw_Mean],
               parts[i]->pVal2[gofw_Mean]);
    sres_DeleteChi2(chi);
    sstring_DeleteRes(ham);
    swalk_DeleteRes(walk);
    unif01_DeleteExternGenBits(gen);
}

static void reset_mmix(void) { mmix_state = 12345; }
static void reset_delphi(void) { delphi_state = 12345; }

int main(void) {
    swrite_Basic = FALSE;
    run("mmix32", mmix32, reset_mmix);
    run("delphi", delphi, reset_delphi);
    return 0;
}

/* Statistics of TestU01 1.2.3's sknuth tests (N = 1, r = 0) on MINSTD and RANDU, seed 12345: the
 * reference values of known_answers.toml. Each test starts a fresh generator, as rnglab's tests do.
 *
 * Build (TestU01 installed under $T):
 *   cc -O2 -o known_answers known_answers.c -I$T/include -L$T/lib -ltestu01 -lprobdist -lmylib -lm
 *   ./known_answers > known_answers.out
 * ulcg_CreateLCG(m, a, 0, s) returns U = x * (1/m) for the state x: for MINSTD x is in [1, m - 1].
 */
#include <stdio.h>
#include "unif01.h"
#include "ulcg.h"
#include "sres.h"
#include "sknuth.h"
#include "swrite.h"

static unif01_Gen *make(int randu)
{
    return randu ? ulcg_CreateLCG(2147483648L, 65539, 0, 12345) : ulcg_CreateLCG(2147483647L, 16807, 0, 12345);
}

static void chi2(const char *name, int randu, sres_Chi2 *res)
{
    printf("%s %s statistic=%.10g pvalue=%.10g\n", randu ? "randu" : "minstd", name,
           res->sVal2[gofw_Mean], res->pVal2[gofw_Mean]);
}

int main(void)
{
    int randu;
    swrite_Basic = FALSE;
    for (randu = 0; randu <= 1; randu++) {
        unif01_Gen *gen;
        sres_Chi2 *res = sres_CreateChi2();
        sknuth_Res2 *coll = sknuth_CreateRes2();

        gen = make(randu); sknuth_Serial(gen, res, 1, 1000000, 0, 32, 3); chi2("serial n=1000000 d=32 t=3", randu, res); ulcg_DeleteGen(gen);
        gen = make(randu); sknuth_Serial(gen, res, 1, 100000, 0, 16, 2); chi2("serial n=100000 d=16 t=2", randu, res); ulcg_DeleteGen(gen);
        gen = make(randu); sknuth_Gap(gen, res, 1, 100000, 0, 0.0, 0.125); chi2("gap n=100000 alpha=0 beta=0.125", randu, res); ulcg_DeleteGen(gen);
        gen = make(randu); sknuth_SimpPoker(gen, res, 1, 100000, 0, 8, 5); chi2("poker n=100000 d=8 k=5", randu, res); ulcg_DeleteGen(gen);
        gen = make(randu); sknuth_CouponCollector(gen, res, 1, 100000, 0, 8); chi2("coupon n=100000 d=8", randu, res); ulcg_DeleteGen(gen);
        gen = make(randu); sknuth_Permutation(gen, res, 1, 100000, 0, 4); chi2("permutation n=100000 t=4", randu, res); ulcg_DeleteGen(gen);
        gen = make(randu); sknuth_Run(gen, res, 1, 1000000, 0, TRUE); chi2("runs-up n=1000000", randu, res); ulcg_DeleteGen(gen);
        gen = make(randu); sknuth_Collision(gen, coll, 1, 5000000, 0, 65536, 2);
        printf("%s collision n=5000000 d=65536 t=2 collisions=%.10g\n", randu ? "randu" : "minstd",
               coll->Pois->sVal2); ulcg_DeleteGen(gen);
        sres_DeleteChi2(res);
        sknuth_DeleteRes2(coll);
    }
    return 0;
}

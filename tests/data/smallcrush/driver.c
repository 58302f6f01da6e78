/* TestU01 1.2.3's SmallCrush, or one of its tests with SmallCrush's parameters and a chosen sample size, on a
 * stream of 32-bit little-endian words read from a file (one word = one call of GetBits, u = word / 2^32).
 *
 *   driver FILE                  bbattery_SmallCrush with TestU01's own report, then "words read: W"
 *   driver FILE TEST N           that test alone with sample size N (SmallCrush's other parameters), one line per
 *                                statistic: "TEST NAME n N statistic S pvalue P words W" (%.17g), W the words it
 *                                read (and for a chi-square test "TEST degrees-of-freedom D" first)
 *
 * TEST: birthday collision gap poker coupon maxoft weight rank hamming walk. FILE may be /dev/stdin.
 * Build and use: see README.md in this directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unif01.h"
#include "swrite.h"
#include "sres.h"
#include "bbattery.h"
#include "smarsa.h"
#include "sknuth.h"
#include "svaria.h"
#include "sstring.h"
#include "swalk.h"

static FILE *input;
static long long words;
static long sample_size;

static unsigned int next_word(void)
{
    unsigned char b[4];
    if (fread(b, 1, 4, input) != 4) {
        fprintf(stderr, "driver: the input ended after %lld words\n", words);
        exit(3);
    }
    ++words;
    return (unsigned int) b[0] | (unsigned int) b[1] << 8 | (unsigned int) b[2] << 16 | (unsigned int) b[3] << 24;
}

static void line(const char *test, const char *name, double statistic, double pvalue)
{
    printf("%s %s n %ld statistic %.17g pvalue %.17g words %lld\n", test, name, sample_size, statistic, pvalue, words);
}

static void one_test(unif01_Gen *gen, const char *test, long n)
{
    if (strcmp(test, "birthday") == 0) {
        sres_Poisson *res = sres_CreatePoisson();
        smarsa_BirthdaySpacings(gen, res, 1, n, 0, 1073741824, 2, 1);
        line(test, "-", res->sVal2, res->pVal2);
        sres_DeletePoisson(res);
    } else if (strcmp(test, "collision") == 0) {
        sknuth_Res2 *res = sknuth_CreateRes2();
        sknuth_Collision(gen, res, 1, n, 0, 65536, 2);
        line(test, "-", res->Pois->sVal2, res->Pois->pVal2);
        sknuth_DeleteRes2(res);
    } else if (strcmp(test, "maxoft") == 0) {
        sknuth_Res1 *res = sknuth_CreateRes1();
        sknuth_MaxOft(gen, res, 1, n, 0, 100000, 6);
        line(test, "chi2", res->Chi->sVal2[gofw_Mean], res->Chi->pVal2[gofw_Mean]);
        line(test, "AD", res->Bas->sVal2[gofw_Mean], res->Bas->pVal2[gofw_Mean]);
        sknuth_DeleteRes1(res);
    } else if (strcmp(test, "hamming") == 0) {
        sstring_Res *res = sstring_CreateRes();
        sstring_HammingIndep(gen, res, 1, n, 20, 10, 300, 0);
        line(test, "-", res->Bas->sVal2[gofw_Mean], res->Bas->pVal2[gofw_Mean]);
        sstring_DeleteRes(res);
    } else if (strcmp(test, "walk") == 0) {
        const char *names[5] = {"H", "M", "J", "R", "C"};
        swalk_Res *res = swalk_CreateRes();
        sres_Chi2 *parts[5];
        int i;
        swalk_RandomWalk1(gen, res, 1, n, 0, 30, 150, 150);
        parts[0] = res->H[0]; parts[1] = res->M[0]; parts[2] = res->J[0]; parts[3] = res->R[0]; parts[4] = res->C[0];
        for (i = 0; i < 5; i++)
            line(test, names[i], parts[i]->sVal2[gofw_Mean], parts[i]->pVal2[gofw_Mean]);
        swalk_DeleteRes(res);
    } else {
        sres_Chi2 *res = sres_CreateChi2();
        if (strcmp(test, "gap") == 0)
            sknuth_Gap(gen, res, 1, n, 22, 0.0, .00390625);
        else if (strcmp(test, "poker") == 0)
            sknuth_SimpPoker(gen, res, 1, n, 24, 64, 64);
        else if (strcmp(test, "coupon") == 0)
            sknuth_CouponCollector(gen, res, 1, n, 26, 16);
        else if (strcmp(test, "weight") == 0)
            svaria_WeightDistrib(gen, res, 1, n, 27, 256, 0.0, 0.125);
        else if (strcmp(test, "rank") == 0)
            smarsa_MatrixRank(gen, res, 1, n, 20, 10, 60, 60);
        else {
            fprintf(stderr, "driver: unknown test %s\n", test);
            exit(2);
        }
        printf("%s degrees-of-freedom %ld\n", test, res->degFree);  /* gap: its t */
        line(test, "-", res->sVal2[gofw_Mean], res->pVal2[gofw_Mean]);
        sres_DeleteChi2(res);
    }
}

int main(int argc, char *argv[])
{
    static char buffer[1 << 20];
    unif01_Gen *gen;
    if (argc != 2 && argc != 4) {
        fprintf(stderr, "usage: driver FILE [TEST N]\n");
        return 2;
    }
    input = fopen(argv[1], "rb");
    if (input == NULL) {
        perror(argv[1]);
        return 2;
    }
    setvbuf(input, buffer, _IOFBF, sizeof buffer);
    gen = unif01_CreateExternGenBits(argc == 2 ? "SmallCrush driver" : argv[2], next_word);
    if (argc == 2) {
        bbattery_SmallCrush(gen);
        printf("words read: %lld\n", words);
    } else {
        swrite_Basic = FALSE;
        sample_size = atol(argv[3]);
        one_test(gen, argv[2], sample_size);
    }
    unif01_DeleteExternGenBits(gen);
    return 0;
}

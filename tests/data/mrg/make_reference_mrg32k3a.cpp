// Reference outputs of MRG32k3a from L'Ecuyer's RngStreams (C++ version,
// github.com/umontreal-simul/RngStreams, src/RngStream.cpp), built outside rnglab:
//   g++ -O0 -I RngStreams/src make_reference_mrg32k3a.cpp RngStreams/src/RngStream.cpp -o ref
//   ./ref > mrg32k3a_reference.txt
// Lines: "seed s0 .. s5", then per output "z u" where u is RandU01() printed with
// %.17g and z the integer the combination step computed, recovered from the state
// (Cg[2] and Cg[5] are the newest states of the two components); "stream2 ..." is
// the initial state of the second stream of the package (2^127 steps after the first).
#include <cstdio>
#include "RngStream.h"

static void run(unsigned long seed[6], int count) {
    RngStream::SetPackageSeed(seed);
    RngStream g;
    RngStream h;
    unsigned long state[6];
    std::printf("seed %lu %lu %lu %lu %lu %lu\n", seed[0], seed[1], seed[2], seed[3], seed[4], seed[5]);
    for (int i = 0; i < count; i++) {
        double u = g.RandU01();
        g.GetState(state);
        long long z = (long long)state[2] - (long long)state[5];
        if (z <= 0) z += 4294967087LL;
        std::printf("%lld %.17g\n", z, u);
    }
    h.GetState(state);
    std::printf("stream2 %lu %lu %lu %lu %lu %lu\n", state[0], state[1], state[2], state[3], state[4], state[5]);
}

int main() {
    unsigned long equal[6] = {12345, 12345, 12345, 12345, 12345, 12345};
    unsigned long unequal[6] = {1, 2, 3, 4, 5, 6};
    unsigned long large[6] = {4294967086UL, 123456789, 987654321, 4294944442UL, 7, 3000000000UL};
    run(equal, 20);
    run(unequal, 20);
    run(large, 20);
    return 0;
}

// rnglab tests/data/latmrg reference driver: LatMRG's spectral test (m-dual lattice, successive
// coordinates) of the MRG x_n = a_1 x_{n-1} + ... + a_k x_{n-k} mod m, with LatMRG's own
// MRGLattice, ReducerBB (BKZ + branch and bound) and FigureOfMeritDualM, printed by LatMRG.
// Usage: ref M NORM LOW HIGH A1 [A2 ...]   (NORM: bestlat or rogers)
// Build (outside the repository): g++ -O2 -std=c++17 -I LatMRG/include -I latticetester/include
//   ref.cc latticetester/src/*.cc -lntl -lgmp -lpthread
#define TYPES_CODE  ZD
#include <iostream>
#include <string>
#include <NTL/ZZ.h>
#include "latticetester/FlexTypes.h"
#include "latticetester/NormaBestLat.h"
#include "latticetester/NormaRogers.h"
#include "latticetester/FigureOfMeritDualM.h"
#include "latticetester/WeightsUniform.h"
#include "latticetester/ReducerStatic.h"
#include "latmrg/MRGLattice.h"
using namespace LatticeTester;
int main(int argc, char **argv) {
   Int m = NTL::conv<Int>(argv[1]);
   std::string norm = argv[2];
   int64_t lowDim = atoi(argv[3]), highDim = atoi(argv[4]), k = argc - 5;
   IntVec aa; aa.SetLength(k + 1);
   for (int64_t i = 1; i <= k; i++) aa[i] = NTL::conv<Int>(argv[4 + i]);
   NTL::Vec<int64_t> t;
   LatMRG::MRGLattice<Int, Real> mrg(m, aa, highDim);
   ReducerBB<Int, Real> red(mrg);
   WeightsUniform weights(1.0);
   Normalizer *normaDual;
   if (norm == "rogers") normaDual = new NormaRogers(-log(m), k, highDim);
   else normaDual = new NormaBestLat(-log(m), k, highDim);
   FigureOfMeritDualM<Int, Real> fomdual(t, weights, *normaDual, &red);
   fomdual.setVerbosity(3);
   fomdual.computeMeritSucc(mrg, lowDim, highDim);
   return 0;
}

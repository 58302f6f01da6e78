// Reference for rnglab's v8-plus and v8-53 generators, built against V8's own
// src/base/utils/random-number-generator.h (XorShift128, ToDouble) taken at a
// given commit (see make_reference.sh); the refill loops below follow the V8
// file named beside each. Usage: driver SEED [SEED ...]; prints per seed
//   SEED VARIANT raw r1 ... r200       Math.random() * 2^52 (v8-plus) or * 2^53 (v8-53), exact integers
//   SEED VARIANT doubles d1 ... d200   the same Math.random() values, shortest round-trip (%.<p>g)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "src/base/utils/random-number-generator.h"

using v8::base::RandomNumberGenerator;

namespace {

const int kCalls = 200;

std::string Shortest(double value) {
  char text[40];
  for (int precision = 1; precision <= 17; precision++) {
    std::snprintf(text, sizeof(text), "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

#ifdef V8_XORSHIFT128_PLUS
// src/runtime/runtime-maths.cc (nodejs/node@0569e1f9, V8 6.x): a 64-double FixedDoubleArray, the state in
// slots 63 and 62, 62 values in slots 0..61 handed out from slot 61 down; --random_seed=N: state0 = state1 = N.
const char kVariant[] = "v8-plus";
const double kScale = 4503599627370496.0;  // 2^52
const int kValues = 62;

// FixedDoubleArray::set stores every NaN as the quiet NaN (V8 issue 8212).
uint64_t StoredAsDouble(uint64_t word) {
  double value = v8::base::bit_cast<double>(word);
  if (std::isnan(value)) value = std::numeric_limits<double>::quiet_NaN();
  return v8::base::bit_cast<uint64_t>(value);
}

void Initialize(int64_t seed, uint64_t* state0, uint64_t* state1) {
  *state0 = seed;
  *state1 = seed;
}

void Refill(uint64_t* state0, uint64_t* state1, double* cache) {
  for (int i = 0; i < kValues; i++) {
    RandomNumberGenerator::XorShift128(state0, state1);
    cache[i] = RandomNumberGenerator::ToDouble(*state0, *state1);
  }
  *state0 = StoredAsDouble(*state0);
  *state1 = StoredAsDouble(*state1);
}
#else
// src/numbers/math-random.cc (MathRandom::RefillCache): 64 values handed out last first; the state from
// MurmurHash3(seed), MurmurHash3(~seed). ToDouble(state0) as V8 13.5 (e0609ce60ac) to 14.3 call it.
const char kVariant[] = "v8-53";
const double kScale = 9007199254740992.0;  // 2^53
const int kValues = 64;

// src/base/utils/random-number-generator.cc, RandomNumberGenerator::MurmurHash3 (not in the header).
uint64_t Murmur(uint64_t h) {
  h ^= h >> 33;
  h *= uint64_t{0xFF51AFD7ED558CCD};
  h ^= h >> 33;
  h *= uint64_t{0xC4CEB9FE1A85EC53};
  h ^= h >> 33;
  return h;
}

void Initialize(int64_t seed, uint64_t* state0, uint64_t* state1) {
  *state0 = Murmur(static_cast<uint64_t>(seed));
  *state1 = Murmur(~static_cast<uint64_t>(seed));
}

void Refill(uint64_t* state0, uint64_t* state1, double* cache) {
  for (int i = 0; i < kValues; i++) {
    RandomNumberGenerator::XorShift128(state0, state1);
    cache[i] = RandomNumberGenerator::ToDouble(*state0);
  }
}
#endif

}  // namespace

int main(int argc, char** argv) {
  for (int a = 1; a < argc; a++) {
    int64_t seed = std::strtoll(argv[a], nullptr, 10);
    uint64_t state0, state1;
    Initialize(seed, &state0, &state1);
    double cache[64];
    int index = 0;
    std::vector<double> values;
    for (int call = 0; call < kCalls; call++) {
      if (index == 0) {
        Refill(&state0, &state1, cache);
        index = kValues;
      }
      values.push_back(cache[--index]);
    }
    std::printf("%s %s raw", argv[a], kVariant);
    for (double v : values) std::printf(" %llu", static_cast<unsigned long long>(v * kScale));
    std::printf("\n%s %s doubles", argv[a], kVariant);
    for (double v : values) std::printf(" %s", Shortest(v).c_str());
    std::printf("\n");
  }
  return 0;
}

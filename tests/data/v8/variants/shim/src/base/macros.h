// Stand-in for V8's src/base/macros.h: only the macros random-number-generator.h uses.
#ifndef V8_BASE_MACROS_H_
#define V8_BASE_MACROS_H_
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#define V8_INLINE inline
#define WARN_UNUSED_RESULT
#define V8_WARN_UNUSED_RESULT
#define V8_UINT64_C(x) UINT64_C(x)
#define V8_2PART_UINT64_C(a, b) (((static_cast<uint64_t>(a) << 32) + 0x##b##u))
namespace v8 {
namespace base {
template <class Dest, class Source>
inline Dest bit_cast(const Source& source) {
  static_assert(sizeof(Dest) == sizeof(Source), "bit_cast of unequal sizes");
  Dest dest;
  std::memcpy(&dest, &source, sizeof(dest));
  return dest;
}
}  // namespace base
}  // namespace v8
#endif

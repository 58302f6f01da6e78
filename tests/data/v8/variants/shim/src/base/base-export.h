// Stand-in for V8's src/base/base-export.h: the driver links nothing from V8's base library.
#ifndef V8_BASE_BASE_EXPORT_H_
#define V8_BASE_BASE_EXPORT_H_
#define V8_BASE_EXPORT
#endif

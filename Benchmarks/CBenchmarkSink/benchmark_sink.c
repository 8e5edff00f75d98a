#include "CBenchmarkSink.h"

void cuffd_benchmark_sink(const void *value) { __asm__ volatile("" : : "r"(value) : "memory"); }

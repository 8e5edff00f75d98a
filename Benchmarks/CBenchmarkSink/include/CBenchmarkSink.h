#ifndef CUFFD_BENCHMARK_SINK_H
#define CUFFD_BENCHMARK_SINK_H

// The sink of Benchmarks/decode-benchmark, the same as Benchmarks/c-reference/bench.c's: a call the optimiser
// cannot see into, given the address of each decoded value, whose compiler barrier makes every store to the
// value happen before it. Both sides of Benchmarks/compare-decode thus do the same work per packet.
void cuffd_benchmark_sink(const void *value);

#endif

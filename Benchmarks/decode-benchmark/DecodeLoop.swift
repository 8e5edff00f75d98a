import GATTHealth
import CAllocationCounter
import CBenchmarkSink

#if canImport(Glibc)
import Glibc
#endif

/// The measured loop of Benchmarks/decode-benchmark: the typed decoder of one characteristic, called
/// `count` times over the same bytes, the address of each result handed to `cuffd_benchmark_sink`. It has
/// the shape of Benchmarks/c-reference/bench.c's loop: per packet, one call to the decoder and one to the
/// same sink.
struct DecodeLoop {
    let characteristic: HealthCharacteristic
    let bytes: [UInt8]
    let quirk: BloodPressureQuirk?
    /// A Heart Rate Measurement's every field read from each decoded value (``HeartRateFields``), as the C decoder
    /// fills its struct.
    var everyField = false

    struct Result {
        let nanosecondsPerPacket: Double
        let allocationsPerPacket: Double
    }

    func measure(count: Int) -> Result {
        run(count: min(count, 10_000))  // warm caches and branch predictors
        cuffd_allocations_start()
        let start = monotonicNanoseconds()
        run(count: count)
        let elapsed = monotonicNanoseconds() - start
        let allocations = cuffd_allocations_stop()
        return Result(
            nanosecondsPerPacket: Double(elapsed) / Double(count),
            allocationsPerPacket: Double(allocations) / Double(count))
    }

    /// Decodes from a copy of the payload on the stack, as the C harness does (`uint8_t bytes[512]`): the
    /// payload then lies at one distance from the decoded value in every run of a build, where a heap array
    /// lands anywhere relative to it.
    private func run(count: Int) {
        withUnsafeTemporaryAllocation(byteCount: bytes.count, alignment: 16) { stack in
            bytes.withUnsafeBytes { stack.copyMemory(from: $0) }
            let buffer = UnsafeRawBufferPointer(stack)
            switch characteristic {
            case .bloodPressureMeasurement:
                repeatDecoding(count, BloodPressureMeasurement.self, from: buffer, quirk: quirk)
            case .intermediateCuffPressure:
                repeatDecoding(count, IntermediateCuffPressure.self, from: buffer, quirk: quirk)
            case .heartRateMeasurement where everyField:
                repeatDecoding(count) { (fields: UnsafeMutablePointer<HeartRateFields>) throws(GATTDecodingError) in
                    try decodeEveryField(buffer, into: fields)
                }
            case .heartRateMeasurement:
                repeatDecoding(count) { (value: UnsafeMutablePointer<HeartRateMeasurement>) throws(GATTDecodingError) in
                    try decode(buffer, into: value)
                }
            default:
                repeatDecoding(count) { value throws(GATTDecodingError) in
                    value.initialize(to: try DecodedCharacteristic.decode(characteristic, buffer))
                }
            }
        }
    }
}

/// A blood pressure characteristic through the decoder for `quirk`, or through the spec decoder when there
/// is none, which does what the C reference does: it knows no quirks.
@inline(__always)
private func repeatDecoding<Value: QuirkAwareValue>(
    _ count: Int, _: Value.Type, from bytes: UnsafeRawBufferPointer, quirk: BloodPressureQuirk?
) {
    if let quirk {
        repeatDecoding(count) { (value: UnsafeMutablePointer<Value>) throws(GATTDecodingError) in
            try decode(bytes, quirk: quirk, into: value)
        }
    } else {
        repeatDecoding(count) { (value: UnsafeMutablePointer<Value>) throws(GATTDecodingError) in
            try decode(bytes, into: value)
        }
    }
}

/// Decodes `count` times into the memory of one value on the stack, handing its address (or the error's) to
/// the sink after each decode: `hrm_decode(bytes, count, &h); sink(&h);` in the C harness.
@inline(__always)
private func repeatDecoding<Value>(_ count: Int, _ decode: (UnsafeMutablePointer<Value>) throws(GATTDecodingError) -> Void) {
    withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { slot in
        let value = slot.baseAddress!
        for _ in 0 ..< count {
            do throws(GATTDecodingError) {
                try decode(value)
                cuffd_benchmark_sink(value)
                value.deinitialize(count: 1)
            } catch {
                withUnsafePointer(to: error) { cuffd_benchmark_sink($0) }
            }
        }
    }
}

// One decode per call, kept out of the loop as the C reference's decoders are (their own translation unit):
// each side pays one call per packet, and the comparison is between the decoders' code. Each is specialised
// for its type, and the decoder's initializer is compiled into it.

@inline(never)
private func decode<Value: GATTCharacteristicValue>(
    _ bytes: UnsafeRawBufferPointer, into value: UnsafeMutablePointer<Value>
) throws(GATTDecodingError) {
    value.initialize(to: try Value(decoding: bytes))
}

/// A Heart Rate Measurement decoded, then each of its fields read into `fields`: `hrm_decode`'s work.
@inline(never)
private func decodeEveryField(_ bytes: UnsafeRawBufferPointer, into fields: UnsafeMutablePointer<HeartRateFields>) throws(GATTDecodingError) {
    fields.initialize(to: HeartRateFields(try HeartRateMeasurement(decoding: bytes)))
}

@inline(never)
private func decode<Value: QuirkAwareValue>(
    _ bytes: UnsafeRawBufferPointer, quirk: BloodPressureQuirk, into value: UnsafeMutablePointer<Value>
) throws(GATTDecodingError) {
    value.initialize(to: try Value(decoding: bytes, quirk: quirk))
}

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// What the crash writer puts in its file for generation `n`, and how the test recognises it whole: a header naming
/// the generation and the length, 256 KiB of the generation's low byte (so a file mixing two generations, or cut short,
/// is told apart), and a trailer naming the generation again. DurableFilesTests imports it to check the file.
enum CrashGeneration {
    static let bodyLength = 256 * 1024
    /// How many write(2) calls the writer makes of a generation.
    static let parts = 4

    static func content(_ generation: UInt64) -> [UInt8] {
        Array("generation \(generation) length \(bodyLength)\n".utf8)
            + [UInt8](repeating: UInt8(truncatingIfNeeded: generation), count: bodyLength)
            + Array("\nend of generation \(generation)\n".utf8)
    }

    /// The generation `bytes` holds whole; nil when they are anything else (torn, mixed, empty).
    static func generation(of bytes: [UInt8]) -> UInt64? {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 4, header[0] == "generation", let generation = UInt64(header[1]) else { return nil }
        return bytes == content(generation) ? generation : nil
    }
}

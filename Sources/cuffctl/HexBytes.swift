import ArgumentParser

/// Bytes written as hex digits, optionally separated by spaces or colons (`1E 8A 00`, `1e:8a:00`,
/// `1E8A00`), as a command-line argument.
struct HexBytes: ExpressibleByArgument {
    let bytes: [UInt8]

    init?(argument: String) {
        let digits = argument.filter { $0 != " " && $0 != ":" }
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index ..< next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.bytes = bytes
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

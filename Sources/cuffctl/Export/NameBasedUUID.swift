import Foundation

/// Version 5 (SHA-1, name-based) UUIDs (RFC 9562 §5.5): the same name gives the same UUID, so exporting the
/// same readings again writes the same `urn:uuid:` full URLs and data-point ids (docs/export.md).
enum NameBasedUUID {
    /// cuffd's namespace: the version 5 UUID of the URL `urn:cuffd` in RFC 9562's URL namespace
    /// (`6ba7b811-9dad-11d1-80b4-00c04fd430c8`).
    static let cuffd = UUID(uuidString: "0ae1c4ea-38c0-5107-a06e-063f3d62c2ff")!

    static func make(_ name: String, in namespace: UUID = cuffd) -> UUID {
        let space = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        var bytes = Array(SHA1.digest(space + Array(name.utf8)).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x50
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// `urn:uuid:…` in lower case, as FHIR's `uuid` type wants it.
    static func urn(_ name: String) -> String { "urn:uuid:" + lowercased(make(name)) }

    /// The UUID's text (RFC 9562 §4) in lower case, written digit by digit.
    static func lowercased(_ uuid: UUID) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        withUnsafeBytes(of: uuid.uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}

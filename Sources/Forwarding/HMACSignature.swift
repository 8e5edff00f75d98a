import COpenSSLCrypto

/// The HTTP sink's `X-Cuffd-Signature` header (docs/forwarding.md, "Verifying the signature"): `sha256=` and the
/// lowercase hex of the body's HMAC-SHA256 (RFC 2104, FIPS 180-4) under the key of `HMACKeyFile=`, by OpenSSL's
/// HMAC(3ssl).
enum HMACSignature {
    static let header = "X-Cuffd-Signature"

    static func value(of body: [UInt8], key: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBytes { key in
            body.withUnsafeBytes { body in
                let data = body.baseAddress?.assumingMemoryBound(to: UInt8.self)
                _ = HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), data, body.count, &digest, &length)
            }
        }
        let hex = Array("0123456789abcdef".utf8)
        return "sha256=" + String(decoding: digest.prefix(Int(length)).flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}

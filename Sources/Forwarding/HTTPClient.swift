import CCurl
import Glibc

/// One receiver's POSTs through libcurl (``CCurl``, opened when first used), on an easy handle kept for the sink's life
/// so that its connection is reused; each POST blocks a thread of its own, not the forwarder's.
final class HTTPClient: @unchecked Sendable {
    /// What a POST came to.
    enum Outcome: Sendable {
        /// The receiver answered `status`, its body starting with `firstLine`.
        case answered(status: Int, firstLine: String)
        /// No answer: libcurl's error, and whether it was the timeout.
        case failed(String, timedOut: Bool)
    }

    /// libcurl could not be loaded or set up: not retried, as nothing changes between attempts.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Unchecked Sendable: only one POST runs at a time (the forwarder awaits each).
    private let handle: UnsafeMutableRawPointer

    init() throws(Unavailable) {
        var error = [CChar](repeating: 0, count: 256)
        guard cuff_http_load(&error, error.count) == 0 else {
            let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Unavailable(description: "libcurl cannot be loaded for the HTTP sink: \(message) (install libcurl4)")
        }
        guard let handle = cuff_http_new() else { throw Unavailable(description: "libcurl cannot make a handle (curl_easy_init)") }
        self.handle = handle
    }

    deinit { cuff_http_free(handle) }

    func post(url: String, headers: [String], body: [UInt8], timeoutSeconds: Int, caFile: String?) async -> Outcome {
        await withCheckedContinuation { continuation in
            startDetachedThread { [self] in
                continuation.resume(returning: postBlocking(url: url, headers: headers, body: body, timeoutSeconds: timeoutSeconds, caFile: caFile))
            }
        }
    }

    private func postBlocking(url: String, headers: [String], body: [UInt8], timeoutSeconds: Int, caFile: String?) -> Outcome {
        var result = cuff_http_result()
        let headerStrings = headers.map { strdup($0) }
        defer { headerStrings.forEach { free($0) } }
        let code = headerStrings.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerPointers in
            body.withUnsafeBytes { body in
                cuff_http_post(
                    handle, url, headerPointers.baseAddress, headers.count, body.baseAddress, body.count, timeoutSeconds * 1000, caFile, &result)
            }
        }
        guard code == 0 else {
            let message = withUnsafeBytes(of: result.error) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            return .failed(message, timedOut: result.timed_out != 0)
        }
        let start = withUnsafeBytes(of: result.body) { Array($0.prefix(result.body_length)) }
        let firstLine = String(decoding: start.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
        return .answered(status: result.status, firstLine: firstLine)
    }
}

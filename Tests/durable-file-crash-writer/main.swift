// durable-file-crash-writer: the child process of DurableFilesTests' crash test.
//
// Usage: durable-file-crash-writer <file> <first generation>
// Replaces <file> (``FileReplacement`` of a ``DurableFile``, mode 0600) over and over with generation n, n+1, …
// (``CrashGeneration``'s content, in four parts) and reports each step on stdout, one line in one write(2) after the
// step returned: "begun N" (the temporary file exists), "part N" (a part written), "wrote N" (the replacement
// committed). The parent SIGKILLs this process after a random number of lines, so that the kill lands in any step.
import DurableFiles
import Glibc

/// `text` in one write(2) to `descriptor`.
func say(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, var generation = UInt64(arguments[2]) else {
    say("usage: durable-file-crash-writer <file> <first generation>\n", to: STDERR_FILENO)
    exit(2)
}
let file = DurableFile(path: arguments[1], mode: 0o600)
while true {
    do {
        let content = CrashGeneration.content(generation)
        let replacement = try FileReplacement(replacing: file)
        say("begun \(generation)\n")
        let part = content.count / CrashGeneration.parts + 1
        for start in stride(from: 0, to: content.count, by: part) {
            try replacement.write(content[start ..< min(start + part, content.count)])
            say("part \(generation)\n")
        }
        try replacement.commit()
    } catch {
        say("durable-file-crash-writer: \(error)\n", to: STDERR_FILENO)
        exit(1)
    }
    say("wrote \(generation)\n")
    generation += 1
}

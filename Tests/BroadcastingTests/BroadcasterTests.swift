import Broadcasting
import Testing

@Suite("Broadcaster")
struct BroadcasterTests {
    @Test("Every subscriber gets every event sent after it subscribed, in order; a transform reshapes or drops")
    func fanOut() async {
        let broadcaster = Broadcaster<Int>()
        broadcaster.send(0)
        let all = broadcaster.subscribe()
        let even = broadcaster.subscribe { $0.isMultiple(of: 2) ? $0 * 10 : nil }
        for n in 1...6 { broadcaster.send(n) }
        broadcaster.finishAll()
        #expect(await Array(all) == [1, 2, 3, 4, 5, 6])
        #expect(await Array(even) == [20, 40, 60])
        // Finished streams are gone; a new subscriber is served.
        let later = broadcaster.subscribe()
        broadcaster.send(7)
        broadcaster.finishAll(last: 8)
        #expect(await Array(later) == [7, 8])
    }

    @Test("After close, every stream ends after the last event, and a later subscriber gets it at once")
    func close() async {
        let broadcaster = Broadcaster<String>()
        let before = broadcaster.subscribe()
        broadcaster.close(last: "gone")
        broadcaster.send("ignored")
        #expect(await Array(before) == ["gone"])
        #expect(await Array(broadcaster.subscribe()) == ["gone"])
    }

    @Test("A subscriber whose stream ends is dropped; a bounded buffer keeps the newest")
    func droppedAndBounded() async {
        let broadcaster = Broadcaster<Int>()
        var gone: AsyncStream<Int>? = broadcaster.subscribe()
        _ = gone
        gone = nil
        let newest = broadcaster.subscribe(bufferingPolicy: .bufferingNewest(2))
        for n in 1...5 { broadcaster.send(n) }
        broadcaster.finishAll()
        #expect(await Array(newest) == [4, 5])
    }
}

extension Array {
    init(_ stream: AsyncStream<Element>) async {
        self.init()
        for await element in stream { append(element) }
    }
}

@_spi(ExperimentalCustomExecutors) import _Concurrency

/// Makes one `MainLoop` the main actor's and the default executor of a program that declares
/// `typealias DefaultExecutorFactory = MainLoopExecutorFactory` in its `@main` type: the compiler's
/// `async main` asks this factory for both before the first job runs.
package enum MainLoopExecutorFactory: ExecutorFactory {
    package static let loop = MainLoop()

    package static var mainExecutor: any MainExecutor { loop }
    package static var defaultExecutor: any TaskExecutor { loop.taskExecutor }
}

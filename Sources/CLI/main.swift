#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let result = Runner.run(RawArguments.fromProcess(), environment: .process)
if let watch = result.watch { watch.run(printingFirst: result) }
writeAll(result.standardOutput, to: STDOUT_FILENO)
writeAll(result.standardError, to: STDERR_FILENO)
exit(result.exitCode)

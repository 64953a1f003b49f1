#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

reserveStandardDescriptors()
let raw = RawArguments.fromProcess()
let result = Runner.run(raw, environment: .process)
if let watch = result.watch { watch.run(printingFirst: result) }
ProcessOutput.finish(result, json: result.json)

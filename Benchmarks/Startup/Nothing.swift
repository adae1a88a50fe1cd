// A program that does nothing, built as scripts/install builds decoy (static Swift runtime and
// Foundation): what starting any such program costs. Benchmarks/scripts/startup_bench.py builds it
// also with FoundationXML (-D LINKS_XML) and FoundationNetworking (-D LINKS_NETWORKING) linked, so
// that the differences are what loading libxml2 and libcurl, with the libraries they need, costs
// before a line of the program runs.
import Foundation

#if LINKS_XML
    import FoundationXML
    let xmlTypes: [Any.Type] = [XMLParser.self]
#else
    let xmlTypes: [Any.Type] = []
#endif
#if LINKS_NETWORKING
    import FoundationNetworking
    let networkingTypes: [Any.Type] = [URLRequest.self]
#else
    let networkingTypes: [Any.Type] = []
#endif

// Naming a type of each is what links its library in; nothing of it runs.
if (xmlTypes + networkingTypes).count > 2 { print("unreachable") }

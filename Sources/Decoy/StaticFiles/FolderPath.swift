import Foundation

/// The rules that keep a file read for a stub inside its stubs folder, for body files and for
/// `__files/` served statically alike: a name is worked out by name alone, so that `..` cannot
/// climb out, and the file found must still be inside once symbolic links are followed.
package enum FolderPath {
    /// `path`, relative to a folder, with `.` and `..` worked out by name alone; `nil` when it climbs out.
    package static func normalized(_ path: String) -> String? {
        var kept: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component != ".." {
                kept.append(component)
            } else if kept.popLast() == nil {
                return nil
            }
        }
        return kept.joined(separator: "/")
    }

    /// Whether `path`, once its symbolic links are followed, is inside `folder`, a path whose own
    /// links are already followed.
    package static func isInside(_ path: String, folder: String) -> Bool {
        URL(filePath: path).resolvingSymlinksInPath().path.hasPrefix(folder + "/")
    }

    /// Whether something is at `path`, and whether it is a folder.
    package static func entry(at path: String) -> (exists: Bool, isFolder: Bool) {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        return (exists, isFolder.boolValue)
    }
}

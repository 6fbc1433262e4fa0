package scratch

import "slices"

// GoArgs returns the go command's arguments args (the subcommand first),
// with -race after the subcommand when it compiles packages (build, vet,
// test) and Race holds; other subcommands (mod, list, run), builds of a
// binary with -o and args that have -race already are returned as they
// are.
func GoArgs(args ...string) []string {
	if !Race || len(args) == 0 || !compiles(args) || slices.Contains(args, "-race") {
		return args
	}
	return append([]string{args[0], "-race"}, args[1:]...)
}

// compiles reports whether args is a build, vet or test of packages, not
// of a tool binary (-o).
func compiles(args []string) bool {
	switch args[0] {
	case "build":
		for _, a := range args[1:] {
			if a == "-o" {
				return false
			}
		}
		return true
	case "vet", "test":
		return true
	}
	return false
}

// Package release tests the release step of the repository
// (hack/release.sh) the way a consumer meets it: through a module proxy.
//
// TestReleasedModulesBuildWithoutReplace snapshots the work tree into a
// scratch Git repository, runs hack/release.sh there (one commit, a tag per
// published module), checks that every module of the repository is still
// tidy, serves the tagged modules from a file-based module proxy (Proxy:
// the GOPROXY protocol's files, zips made by golang.org/x/mod/zip from the
// tags, as a public proxy makes them), and
// builds a consumer module that requires the root module (runtime and
// generator) and each library module (listwatch, dynamic, shard,
// controllerruntime) at the
// released version, with no replace directive: the go command resolves
// every package the consumer imports from the proxy, the generator runs
// (go run .../cmd/informer-gen) and the listers it generated build on the
// fetched runtime, and the consumer builds, with every public package of
// the library modules. With -short the test is skipped. The consumer has
// a module cache of its own; every other module comes from this machine's
// module cache or the usual GOPROXY, so the test works from an empty
// module cache.
//
// The package is a module of its own so that the repository's published
// modules do not depend on golang.org/x/mod.
package release

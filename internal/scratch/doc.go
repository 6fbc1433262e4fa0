// Package scratch is what the tests share that run the go command in a
// scratch module (generated code built, vetted and tested in a module of
// its own: generators' fixtures, corpus's third-party API modules) or
// build a program of the repository they then run (e2e's example
// controller, with -race when Race holds).
//
// Data flow: a test passes the go command's arguments through GoArgs,
// which adds -race to a build, vet or test when the test binary itself
// runs under the race detector (Race). hack/test.sh runs every module's
// tests with -race, so the scratch module's dependencies (apimachinery,
// client-go, k8s.io/api) are then the very compilations the modules' own
// tests made, found in the build cache, rather than a second compilation
// of the same packages without the race detector. Commands that build a
// tool the test then runs (informer-gen, client-gen) do not go through
// GoArgs: under the race detector the tool would run several times
// slower. Nor do apicompat's and versions' scratch modules (our
// informers and listers of all of k8s.io/api, of five API groups on two
// minors): instrumenting that much generated code costs more compilation
// than the shared dependencies save. They build with -trimpath instead, so
// that their generated packages, made in a new temporary folder each run,
// are found in the build cache on the next run.
package scratch

// Package apicompat checks that a package is a source-compatible stand-in
// for another: that code written against the upstream package (for example
// k8s.io/client-go/tools/cache) compiles unchanged against ours once its
// import paths are rewritten.
//
// For every exported name of the upstream package, Compare reports whether
// ours declares it and, when it does, whether the declaration is
// compatible:
//
//   - functions and methods: the same parameters (and variadic-ness) and
//     results;
//   - structs: every exported upstream field exists, with a compatible type;
//   - interfaces: every exported upstream method exists, with a compatible
//     signature (extra methods in ours are reported separately, as they
//     break code that implements the interface);
//   - named types: the same kind of underlying type, every method upstream
//     declares on T (and on *T) is declared on ours the same way, and the
//     same type parameters with compatible constraints;
//   - variables and constants: a compatible type.
//
// Types are compatible when they are identical, or when they are named
// types of packages the Mapping relates (upstream path to ours) that have
// the same name and compatible type arguments: client-go's cache.Indexers
// and our cache.Indexers are compatible, as long as that name is itself
// checked. Types of any other package (k8s.io/apimachinery, the standard
// library) must be identical, so both sides must resolve them to the same
// module version. Unexported named types of mapped packages are
// compatible with any unexported named type of the mapped package: code
// outside the package cannot name them.
//
// The functions are safe for concurrent use; loading packages runs the go
// command and may take seconds.
//
// The package's tests require every exported name of client-go's
// tools/cache to be declared compatibly: in runtime/cache, or, for the
// three that need client-go's REST client (Getter, NewListWatchFromClient,
// NewFilteredListWatchFromClient), in the listwatch module. A missing or
// incompatible name fails TestRuntimeCacheIsSourceCompatibleWithClientGo,
// naming it; when none is, the test reports "every tools/cache name
// present and compatible".
//
// The package's tests go beyond declarations: they follow the migration
// guide's recipe (docs/migration.md) for porting a project off client-go's
// informers and listers (its shell commands, as written), build the result, and run a generated
// behaviour differential that drives client-go's listers, informers'
// indexers and generic listers for every type of k8s.io/api and ours with
// the same objects and calls, comparing results and errors
// (testdata/listerbehaviour). They compare the dynamic module's packages
// with client-go's dynamicinformer, dynamiclister, metadatainformer and
// metadatalister, and port internal/clientgodyn, a monitor written
// against those client-go packages, by rewriting its imports, then run
// its tests.
package apicompat

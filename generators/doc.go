// Package generators turns Go API types into typed informers, listers and a
// shared informer factory running on the informer-gen runtime
// (runtime/cache, runtime/factory, runtime/lister), in one pass.
//
// The pipeline is: load the input packages (syntax only: no dependency is
// type-checked, see load.go), read their +genclient and package tags, build
// a model of groups, versions and types with one source for every resource
// name (builder.go), plan the output files, render each from the templates
// package and gofmt it in process, and finally either write the whole set
// (each file through a temporary file and a rename, so a failing run
// writes nothing; transaction.go) or compare it with what is on disk.
//
// Each kind of output file is one unit: NAME_file.go (informer_file.go,
// lister_file.go, factory_file.go, ...) declares the data its template
// prints, with every decision made, and which files of the kind a model
// gets; templates/NAME.go.tmpl is its text.
//
// Besides informers and listers, each group version gets
// zz_generated.compaction.go (compaction_file.go, compaction_walks.go,
// compaction_types.go): per API type, the walk that interns its strings
// and shares its repeated parts in the informers' caches (package
// runtime/compact), decided from the type's syntax, with
// +informer-gen:compact=false to keep a field or type out.
//
// The walks-only mode (Options.WalksOnly; compaction_only.go,
// compaction_roots.go) writes only zz_generated.compaction.go, for API
// packages that have no clientset (kubebuilder's api/v1, k8s.io/api for
// controller-runtime): into each package itself, or into
// OUTPUT-DIR/GROUP/VERSION with OUTPUT-DIR's package importing them all.
//
// Generate is the entry point; cmd/informer-gen is its command line.
package generators

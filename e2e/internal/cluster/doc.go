// Package cluster runs a real etcd and kube-apiserver on 127.0.0.1 for the
// end-to-end tests of informer-gen, with the example CRDs
// (examples/crd/config/crd) installed and established.
//
// The processes are started through controller-runtime's envtest, which
// already knows how to provision serving certificates, client-certificate
// users and free ports for a given kube-apiserver version; this package adds
// what the fault-injection tests need on top of it: restarting the API
// server while etcd keeps its data, compacting etcd so that the next watch
// from an old resourceVersion fails with 410 Gone, a TCP proxy between
// clients and the API server that a test can cut, an HTTP proxy that drops
// the bookmark ending a watch list's initial events (BookmarkFilter), and
// least-privilege users.
//
// The binaries are built from source by hack/kube-binaries.sh on first use
// (several minutes on a fresh machine, seconds afterwards).
//
// Set KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT=true to see the output of
// etcd and kube-apiserver (envtest reads it).
//
// A Cluster is safe for concurrent use by the tests that share it, except
// for the fault injections (KillAPIServer, StartAPIServer, RestartAPIServer,
// CompactEtcd), which affect every client of the cluster and so belong in
// tests that own their cluster or do not run in parallel.
package cluster

// Package samplecontroller is a test module: informer-gen's generated
// informers, listers and factory (in generated/) for the API types of
// k8s.io/sample-controller v0.36.3, a project informer-gen's authors did not
// write, built against sample-controller's own client-gen clientset.
//
// The generated code is written and checked by the root module's test
// generators.TestSampleController*; this module's tests run the generated
// factory against sample-controller's fake clientset.
package samplecontroller

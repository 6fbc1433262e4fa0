// Package rawstream opens a watch's response body through a clientset's
// REST client, for the packages that decode a server's watch stream
// themselves (runtime/protowatch, runtime/jsonwatch).
//
// Data flow: a generated informer calls protowatch.OpenStream or
// jsonwatch.OpenStream with its typed group client's RESTClient(); each
// checks the client, sets its content type, and calls Open with the
// request, which sends what the typed client's Watch sends (unthrottled)
// and returns the body their Watcher decodes.
package rawstream

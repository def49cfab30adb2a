package kafkaconn

import (
	"crypto/x509"
	"errors"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
)

// Refusal says whether err is Kafka refusing this client — its credential, its certificate or
// its rights — rather than a transient fault, and what to fix, in one line. A refusal is not
// retried as if the broker were away: it lasts until someone changes a credential or an ACL.
func Refusal(err error) (reason string, refused bool) {
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	switch {
	case err == nil:
		return "", false
	case errors.Is(err, kerr.SaslAuthenticationFailed):
		return "authentication refused: wrong SCRAM user or password (or the user was revoked)", true
	case errors.Is(err, kerr.UnsupportedSaslMechanism):
		return "authentication refused: the broker does not offer SCRAM-SHA-512 on this listener", true
	case errors.Is(err, kerr.TopicAuthorizationFailed):
		return "not authorized for the topic (no ACL for this user, or it was revoked)", true
	case errors.Is(err, kerr.ClusterAuthorizationFailed):
		return "not authorized on the cluster (no ACL for this user, or it was revoked)", true
	case errors.Is(err, kerr.GroupAuthorizationFailed):
		return "not authorized for the consumer group", true
	case errors.Is(err, kerr.TransactionalIDAuthorizationFailed):
		return "not authorized for the transactional id", true
	case errors.As(err, &unknownCA):
		return "TLS: the broker's certificate is not signed by the configured CA", true
	case errors.As(err, &hostname):
		return "TLS: the broker's certificate does not name the address it was reached at", true
	case strings.Contains(err.Error(), "tls: bad certificate"), strings.Contains(err.Error(), "tls: certificate required"):
		return "TLS: the broker refused this client's certificate", true
	}
	return "", false
}

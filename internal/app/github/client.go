package github

import (
	"errors"
	"fmt"
	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"net/http"
	"net/url"
	"strings"
	"time"

	gh "github.com/google/go-github/v66/github"
)

// DefaultAPIURL is github.com's REST API.
const DefaultAPIURL = "https://api.github.com"

// DefaultTimeout bounds one HTTP request when Options.HTTPClient is nil.
const DefaultTimeout = 60 * time.Second

// maxPages bounds every paginated listing (100 items a page).
const maxPages = 100

// Options configures a Client.
type Options struct {
	// APIURL is the REST API's base URL: the runner's GITHUB_API_URL
	// (https://HOST/api/v3 on GitHub Enterprise Server). "" means
	// DefaultAPIURL. Any path works; nothing is appended to it.
	APIURL string
	// Token authenticates every request (the github-token input). Mask it
	// in the log before anything else happens.
	Token string
	// HTTPClient sends the requests; nil means a client with
	// DefaultTimeout. Its Transport is wrapped to add the token.
	HTTPClient *http.Client
	// UserAgent replaces go-github's default when not "".
	UserAgent string
}

// Client publishes to one GitHub instance with one token. It is safe for
// concurrent use.
type Client struct {
	gh    *gh.Client
	token string
}

// NewClient returns a client for o.APIURL authenticated with o.Token.
func NewClient(o Options) (*Client, error) {
	api := strings.TrimSpace(o.APIURL)
	if api == "" {
		api = DefaultAPIURL
	}
	u, err := url.Parse(api)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("GitHub API URL %q is not an absolute http(s) URL", api)
	}
	if u.User != nil {
		return nil, errors.New("GitHub API URL must not contain credentials")
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: DefaultTimeout}
	}
	c := gh.NewClient(hc)
	if o.Token != "" {
		c = c.WithAuthToken(o.Token)
	}
	// Set directly rather than through WithEnterpriseURLs, which appends
	// api/v3/ to any URL it does not recognise.
	c.BaseURL = u
	if o.UserAgent != "" {
		c.UserAgent = o.UserAgent
	}
	return &Client{gh: c, token: o.Token}, nil
}

func checkRepo(owner, repo string) error {
	_, _, err := actionenv.SplitRepository(owner + "/" + repo)
	return err
}

// splitRepository splits and checks "owner/name".
func splitRepository(full string) (owner, repo string, err error) {
	return actionenv.SplitRepository(full)
}

// isCommitID is gitrepo.IsCommitID: a full lower-case hex commit id.
func isCommitID(s string) bool { return gitrepo.IsCommitID(s) }

// Package sharedtest gives tests the published data they check the
// project against, without the project ever copying it: the published
// MCP schemas (one file per revision) and the OASIS SARIF 2.1.0 schema.
//
// Tests get them the way the product gets schemas, in this order:
//
//  1. the directory named by $MCP_SURFACE_TEST_DATA (DataEnv), laid out
//     as mcp-schema/<revision>/schema.json and sarif/sarif-schema-2.1.0.json;
//     a machine without network points it at a copy of that data;
//  2. the user's cache: the MCP schemas where `mcp-surface schemas fetch`
//     puts them, the SARIF schema beside them;
//  3. the published location, pinned by commit and checked against the
//     pinned SHA-256, then written to the cache.
//
// When none of them works, the first test of a package that needs the data
// fails with one message that says how to provide it, and the package's
// later tests that need it are skipped with a pointer to that failure.
//
// It also finds the repository root, for tests that read files of the
// repository itself.
package sharedtest

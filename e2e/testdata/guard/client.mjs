// A session of the TypeScript SDK's client with a stdio server: every
// list paged to its end, then a call, a prompt and a read; what the
// client's API returned is printed as JSON on stdout.
//
//   node client.mjs '["command", "arg", ...]' WORKDIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({ command, args, cwd: process.argv[3], stderr: "inherit" });
const client = new Client({ name: "mcp-surface-guard-e2e", version: "1.0.0" });
await client.connect(transport);

async function all(method, key) {
  const items = [];
  let cursor;
  do {
    const page = await client[method](cursor ? { cursor } : {});
    items.push(...page[key]);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

async function attempt(f) {
  try {
    return await f();
  } catch (e) {
    return { error: String(e && e.message) };
  }
}

const out = {
  server: client.getServerVersion(),
  capabilities: client.getServerCapabilities(),
  instructions: client.getInstructions(),
};
out.tools = await all("listTools", "tools");
out.prompts = await all("listPrompts", "prompts");
out.resources = await all("listResources", "resources");
out.templates = await all("listResourceTemplates", "resourceTemplates");
out.call = await attempt(() => client.callTool({ name: "echo", arguments: { message: "through the guard" } }));
out.prompt = await attempt(() => client.getPrompt({ name: out.prompts[0].name, arguments: {} }));
out.read = await attempt(() => client.readResource({ uri: out.resources[0].uri }));
await client.close();
process.stdout.write(JSON.stringify(out, null, 1) + "\n");

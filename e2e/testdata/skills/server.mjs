// A skills server built with @olaservo/ext-skills (the TypeScript SDK of
// the Skills extension, SEP-2640, by its authors) on the v2 MCP TypeScript
// SDK: the real implementation the capture is tested against. It serves
// the skills under ./skills (or the directory given as the first
// argument) over stdio, one skills/list entry per page.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { discoverSkills, registerSkillResources } from "@olaservo/ext-skills/server";
import { fileURLToPath } from "node:url";
import path from "node:path";

const dir = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "skills");
const skills = discoverSkills(dir);

serveStdio(() => {
  const server = new McpServer({ name: "skills-e2e", version: "1.0.0" }, { capabilities: { resources: {} } });
  registerSkillResources(server, skills, dir, { pageSize: 1, ttlMs: 60000, cacheScope: "public" });
  return server;
});

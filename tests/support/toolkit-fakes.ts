import http from "node:http";
import type { AddressInfo } from "node:net";

// The outside world the built-in toolkit talks to, on loopback: a small web site (pages,
// redirects, a 404, a PDF, pages too big) and four search providers, each speaking its wire
// format. Every request is recorded, so tests can say what the tool sent.

type Seen = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
};

const ARTICLE = `<!doctype html><html><head><title>Tide tables</title>
<script>window.secret = "script text";</script><style>.x{}</style></head>
<body><nav><a href="/">Home</a></nav>
<main><h1>High tide at noon</h1><p>The harbour floods twice a day &amp; ships wait.</p>
<p>See <a href="/ports">the ports</a>.</p></main><footer>footer text</footer></body></html>`;

export async function startToolkitFakes() {
  const seen: Seen[] = [];
  let origin = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
      });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      const key = String(req.headers["x-api-key"] ?? "");
      switch (url.pathname) {
        case "/page": // a redirect first: the tool follows it, checking the new address too
          res.writeHead(302, { location: "/article" });
          return res.end();
        case "/article":
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          return res.end(ARTICLE);
        case "/to-private":
          res.writeHead(301, {
            location: `http://127.0.0.2:${(server.address() as AddressInfo).port}/article`,
          });
          return res.end();
        case "/loop":
          res.writeHead(302, { location: "/loop" });
          return res.end();
        case "/notes.txt":
          res.writeHead(200, { "content-type": "text/plain" });
          return res.end("plain notes\nsecond line");
        case "/report.pdf":
          res.writeHead(200, { "content-type": "application/pdf" });
          return res.end("%PDF-1.7");
        case "/big": // says how big it is: refused without reading
          res.writeHead(200, { "content-type": "text/html", "content-length": 10_000 });
          return res.end("x".repeat(10_000));
        case "/big-stream": // does not say: read up to the limit, marked truncated
          res.writeHead(200, { "content-type": "text/plain" });
          res.write("y".repeat(3000));
          return res.end("z".repeat(3000));
        case "/serper/search":
          return json(200, {
            searchParameters: { q: JSON.parse(body).q },
            organic: [
              {
                title: "Tides",
                link: "https://tides.example/",
                snippet: `Tide tables ${key}`,
                position: 1,
              },
              {
                title: "Moon",
                link: "https://moon.example/",
                snippet: "The moon pulls",
                position: 2,
              },
            ],
          });
        case "/tavily/search":
          return json(200, {
            query: JSON.parse(body).query,
            results: [
              { title: "Tides", url: "https://tides.example/", content: "Tide tables", score: 0.9 },
            ],
          });
        case "/brave/res/v1/web/search":
          return json(200, {
            type: "search",
            web: {
              type: "search",
              results: [
                {
                  title: "Tides",
                  url: "https://tides.example/",
                  description: "<strong>Tide</strong> tables",
                },
              ],
            },
          });
        case "/searxng/search":
          return json(200, {
            query: url.searchParams.get("q"),
            results: [
              {
                title: "Tides",
                url: "https://tides.example/",
                content: "Tide tables",
                engine: "x",
              },
            ],
          });
        default:
          res.writeHead(404, { "content-type": "text/html" });
          return res.end("<h1>Not found</h1>");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

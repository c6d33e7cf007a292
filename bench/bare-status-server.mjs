// The yardstick for /status: a bare node:http server doing the same database read (one
// primary-key SELECT of the same columns) and JSON-encoding it. No auth, no framework.
import http from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const COLUMNS =
  "id, crew, status, owner_user_id, tasks, current_task, pending_human_input, last_step, result, error, created_at, updated_at, started_at, finished_at";

const server = http.createServer(async (req, res) => {
  const id = req.url.split("/").pop();
  const { rows } = await pool.query(`SELECT ${COLUMNS} FROM executions WHERE id = $1`, [id]);
  res.writeHead(rows.length ? 200 : 404, { "content-type": "application/json" });
  res.end(JSON.stringify(rows[0] ?? null));
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("bare status server ready"));
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));

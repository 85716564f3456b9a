// Which PostgreSQL driver the sandbox's store uses, by measurement: `pg` (node-postgres) against
// `postgres` (postgres.js), on a throwaway cluster, doing what the store does most: an insert and
// a read by primary key, each a prepared statement, one at a time and ten in flight.
import pg from "pg";
import postgres from "postgres";
import { startPostgres } from "../lib/temp-postgres.ts";
import { measureAlternating, type Figure } from "./measure.ts";

const SCHEMA = "CREATE TABLE items (account_id BIGINT, id TEXT, body TEXT, created_at_ms BIGINT, PRIMARY KEY (account_id, id))";

export async function benchDrivers(durationMs: number): Promise<Figure[]> {
  const cluster = startPostgres("sandbox");
  const urls = [cluster.createDatabase(), cluster.createDatabase()];
  const pool = new pg.Pool({ connectionString: urls[0], max: 10 });
  // postgres.js reads no socket folder from a URL: it is given the socket's path.
  const sql = postgres({
    path: `${cluster.socketFolder}/.s.PGSQL.5432`,
    user: "postgres",
    database: new URL(urls[1]!).pathname.slice(1),
    max: 10,
    onnotice: () => {},
  });
  try {
    await pool.query(SCHEMA);
    await sql.unsafe(SCHEMA);
    let n = 0;
    const viaPg = async () => {
      const id = `i${++n}`;
      await pool.query({ name: "insert", text: "INSERT INTO items VALUES ($1, $2, $3, $4)", values: [1, id, "{}", Date.now()] });
      await pool.query({ name: "get", text: "SELECT body FROM items WHERE account_id = $1 AND id = $2", values: [1, id] });
    };
    const viaPostgres = async () => {
      const id = `i${++n}`;
      await sql`INSERT INTO items VALUES (${1}, ${id}, ${"{}"}, ${Date.now()})`;
      await sql`SELECT body FROM items WHERE account_id = ${1} AND id = ${id}`;
    };
    const tenAtOnce = (fn: () => Promise<void>) => () => Promise.all(Array.from({ length: 10 }, fn));
    const figures = await measureAlternating(durationMs, {
      "pg, one at a time": viaPg,
      "postgres, one at a time": viaPostgres,
      "pg, ten in flight": tenAtOnce(viaPg),
      "postgres, ten in flight": tenAtOnce(viaPostgres),
    });
    return figures.map((f) => (f.name.includes("ten") ? { ...f, value: f.value * 10 } : f)).map((f) => ({ ...f, unit: "writes+reads/s" }));
  } finally {
    await pool.end();
    await sql.end();
    cluster.stop();
  }
}

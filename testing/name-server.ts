// A name server for the alerts' tests, on 127.0.0.1 and a free UDP port: it answers A and AAAA
// questions from the records it is given (NXDOMAIN for an unknown name, no records for a known name
// without that type), or, silent, never answers at all, as a name server that has gone away. It counts
// the questions it was asked, so a test can tell a lookup that went to DNS from one that did not.
// Stopped by the test that started it.
import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import ipaddr from "ipaddr.js";

export type DnsRecords = Record<string, { A?: string[]; AAAA?: string[] }>;

export type DnsServer = {
  /** For `Resolver#setServers`: `127.0.0.1:port`. */
  address: string;
  /** The names asked so far, with their types ("A", "AAAA"), in order. */
  questions: { name: string; type: string }[];
  close(): Promise<void>;
};

const TYPES: Record<number, "A" | "AAAA"> = { 1: "A", 28: "AAAA" };

/** The question of a DNS query: its name, type and where the question section ends. */
function readQuestion(message: Buffer): { name: string; type: number; end: number } | null {
  let offset = 12;
  const labels: string[] = [];
  while (offset < message.length) {
    const length = message[offset]!;
    offset++;
    if (length === 0) break;
    labels.push(message.subarray(offset, offset + length).toString("latin1"));
    offset += length;
  }
  if (offset + 4 > message.length) return null;
  return { name: labels.join(".").toLowerCase(), type: message.readUInt16BE(offset), end: offset + 4 };
}

function answer(query: Buffer, records: DnsRecords, question: { name: string; type: number; end: number }): Buffer {
  const known = records[question.name];
  const kind = TYPES[question.type];
  const addresses = known && kind ? (known[kind] ?? []) : [];
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // the id
  // A response to a recursive query, recursion available; NXDOMAIN (3) for a name it does not know.
  header.writeUInt16BE(known ? 0x8180 : 0x8183, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(addresses.length, 6);
  const answers = addresses.map((address) => {
    const rdata = Buffer.from(ipaddr.parse(address).toByteArray());
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    record.writeUInt16BE(question.type, 2);
    record.writeUInt16BE(1, 4); // IN
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([record, rdata]);
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...answers]);
}

/** Starts a name server answering from `records`, or one that never answers (`"silent"`). */
export async function startDnsServer(records: DnsRecords | "silent"): Promise<DnsServer> {
  const socket = dgram.createSocket("udp4");
  const questions: DnsServer["questions"] = [];
  socket.on("message", (message, from) => {
    const question = readQuestion(message);
    if (!question) return;
    questions.push({ name: question.name, type: TYPES[question.type] ?? String(question.type) });
    if (records === "silent") return;
    socket.send(answer(message, records, question), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

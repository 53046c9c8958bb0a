"""An MLLP server written outside chart-export: python-hl7's asyncio MLLP server (Debian: python3-hl7),
answering every message with python-hl7's own ACK (Message.create_ack). A message whose MSH-3 is NAK-ME is
answered AE. Prints the port it listens on (127.0.0.1, a free port), then serves until stopped."""
import asyncio

import hl7
from hl7.mllp import start_hl7_server


async def process(reader, writer):
    try:
        while not writer.is_closing():
            message = await reader.readmessage()
            code = "AE" if str(message.segment("MSH")(3)) == "NAK-ME" else "AA"
            writer.writemessage(message.create_ack(code))
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def main():
    server = await start_hl7_server(process, "127.0.0.1", 0, limit=16 * 1024 * 1024, encoding="utf-8")
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())

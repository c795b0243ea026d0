/// <reference lib="webworker" />
import { createChunkService } from './chunk-service'
import type { ChunkReply, ChunkRequest } from './chunk-service'

/**
 * The output's chunk worker: songs decoded, resampled and time-stretched here (`chunk-service.ts`), off
 * the page's main thread; the chunks' planes are transferred to the page, not copied.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope
const service = createChunkService((reply: ChunkReply, transfer: Transferable[] = []) =>
  scope.postMessage(reply, transfer),
)
scope.onmessage = (event: MessageEvent<ChunkRequest>) => void service.handle(event.data)

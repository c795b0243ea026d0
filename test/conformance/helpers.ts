import { expect } from 'vitest'
import * as phone from '../support/phone'

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Json = any

export async function api(base: string, path: string, init: RequestInit = {}): Promise<Json> {
  const res = await fetch(base + path, init)
  const body = (await res.json()) as Json
  return body
}

export async function data(base: string, path: string, init: RequestInit = {}): Promise<Json> {
  const body = await api(base, path, init)
  expect(body.code, `${path}: ${body.message}`).toBe(0)
  return body.data
}

/** Signs in to a reference server as the owner's phone would: the page, then confirm with the passphrase. */
export async function signIn(base: string): Promise<string> {
  const { unikey } = await data(base, '/connect/qr/key')
  const { qrurl } = await data(base, `/connect/qr/create?key=${unikey}&qrimg=false`)
  await (await fetch(qrurl)).text()
  await (await phone.confirmOnPhone(qrurl)).text()
  const check = await data(base, `/connect/qr/check?key=${unikey}`)
  expect(check.status).toBe(2)
  return check.cookie
}

import { describe, expect, it } from 'vitest'
import { isLoopbackHost, isPrivateLanHost, validateSourceUrl } from '@main/core/sources/url'

describe('validateSourceUrl', () => {
  it.each([
    ['https://music.example.com/', 'https://music.example.com', false],
    ['https://music.example.com/api/', 'https://music.example.com/api', false],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000', false],
    ['http://localhost:4000/', 'http://localhost:4000', false],
    ['http://[::1]:4000', 'http://[::1]:4000', false],
    ['http://192.168.1.20:4000', 'http://192.168.1.20:4000', true],
    ['http://10.0.0.5', 'http://10.0.0.5', true],
    ['http://172.20.1.1:80', 'http://172.20.1.1', true],
    ['http://169.254.3.4', 'http://169.254.3.4', true],
    ['http://nas.local:3000', 'http://nas.local:3000', true],
    ['http://[fd12:3456::1]:4000', 'http://[fd12:3456::1]:4000', true],
    ['192.168.1.20:4000', 'http://192.168.1.20:4000', true],
    ['https://music.example.com/?x=1#y', 'https://music.example.com', false],
  ])('accepts %s', (input, url, insecure) => {
    expect(validateSourceUrl(input)).toEqual({ url, insecure })
  })

  it.each([
    ['http://music.example.com', /https/],
    ['http://172.32.0.1', /https/],
    ['http://8.8.8.8', /https/],
    ['ftp://192.168.1.2', /http and https/],
    ['file:///etc/passwd', /http and https/],
    ['javascript:alert(1)', /not a web address|http and https/],
    ['https://user:pw@music.example.com', /password/],
    ['http://', /not a web address|host/],
  ])('refuses %s', (input, message) => {
    expect(() => validateSourceUrl(input)).toThrow(message)
  })

  it('tells loopback from LAN', () => {
    expect(isLoopbackHost('127.8.0.1')).toBe(true)
    expect(isLoopbackHost('192.168.0.1')).toBe(false)
    expect(isPrivateLanHost('172.15.0.1')).toBe(false)
    expect(isPrivateLanHost('172.31.255.255')).toBe(true)
    expect(isPrivateLanHost('example.com')).toBe(false)
    expect(isPrivateLanHost('fe80::1')).toBe(true)
  })
})

import { describe, expect, it } from 'vitest'
import { SearchParamError } from '@tanstack/react-router'
import { notFoundInfo, routeErrorInfo } from './route-errors.ts'

describe('error pages', () => {
  it('shows "Page not found: {path}" with the title Page Not Found for an unknown path', () => {
    expect(notFoundInfo('/khong-co')).toEqual({
      status: 404,
      title: 'Page Not Found',
      message: 'Page not found: /khong-co',
    })
  })

  it('shows "Page Not Found: {path}" as a 404 when route validation fails', () => {
    expect(routeErrorInfo(new SearchParamError('lat must be a number'), '/demo?lat=abc')).toMatchObject({
      status: 404,
      title: 'Page Not Found',
      message: 'Page Not Found: /demo?lat=abc',
    })
  })

  it('titles any other error Internal Server Error with status 500 by default', () => {
    expect(routeErrorInfo(new Error('boom'), '/')).toMatchObject({ status: 500, title: 'Internal Server Error' })
    expect(routeErrorInfo('weird', '/')).toMatchObject({ status: 500, title: 'Internal Server Error' })
  })

  it('keeps an error\u2019s own status, titled Page Not Found only for 404', () => {
    expect(routeErrorInfo(Object.assign(new Error('gone'), { status: 404 }), '/x')).toMatchObject({
      status: 404,
      title: 'Page Not Found',
    })
    expect(routeErrorInfo(Object.assign(new Error('down'), { status: 503 }), '/x')).toMatchObject({
      status: 503,
      title: 'Internal Server Error',
    })
  })
})

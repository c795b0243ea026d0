import { useRoute, useRouter } from 'vue-router'
import { useAuthStore } from '@renderer/stores/auth'

/** Opens the QR login view, remembering where to come back to once signed in. */
export function useLogin() {
  const router = useRouter()
  const route = useRoute()
  const auth = useAuthStore()
  return () => {
    if (route.name !== 'login') auth.returnTo = route.fullPath
    return router.push({ name: 'login' })
  }
}
